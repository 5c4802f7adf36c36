import { gzipSync } from 'node:zlib';
import { type Agent as HttpAgent } from 'node:http';
import { type Agent as HttpsAgent } from 'node:https';
import { type BlockList } from 'node:net';
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { type OpenDestination } from './audit-senders';
import { blockedLiteral, MAX_ANSWER, type SendOutcome } from './guarded-post';
import { jsonLines, type StreamRecord } from './stream-record';

/** `<prefix>/YYYY/MM/DD/HH/<key>.json.gz`, the hour of the batch in UTC. */
export function s3ObjectKey(prefix: string | undefined, at: Date, key: string): string {
  const p = (n: number): string => String(n).padStart(2, '0');
  const path = `${at.getUTCFullYear()}/${p(at.getUTCMonth() + 1)}/${p(at.getUTCDate())}/${p(at.getUTCHours())}/${key}.json.gz`;
  return prefix ? `${prefix}/${path}` : path;
}

/**
 * One gzip'd JSON-lines object through the official AWS SDK client (S3, MinIO, R2, GCS's S3 API).
 * Its connections use the guarded agents (the SSRF guard on every lookup); a literal address in
 * the endpoint is judged before. Path-style addressing with an endpoint, as S3-compatible servers expect.
 */
export async function putS3Object(
  d: OpenDestination,
  records: StreamRecord[],
  opts: { timeoutMs: number; allowed: BlockList; agents: { http: HttpAgent; https: HttpsAgent }; key: string },
): Promise<SendOutcome> {
  const started = performance.now();
  const outcome = (status: number | null, error: string | null, body = ''): SendOutcome => ({
    ok: error === null,
    status,
    body: body.slice(0, MAX_ANSWER),
    error,
    latencyMs: Math.round(performance.now() - started),
  });
  const endpoint = d.settings['endpoint'];
  if (endpoint) {
    const blocked = blockedLiteral(new URL(endpoint), opts.allowed);
    if (blocked) return outcome(null, blocked);
  }
  const client = new S3Client({
    region: d.settings['region'],
    ...(endpoint ? { endpoint, forcePathStyle: true } : {}),
    credentials: { accessKeyId: d.credentials['accessKeyId'], secretAccessKey: d.credentials['secretAccessKey'] },
    requestHandler: {
      httpAgent: opts.agents.http,
      httpsAgent: opts.agents.https,
      requestTimeout: opts.timeoutMs,
      // Without it the SDK only warns when the timeout passes, and the request hangs on.
      throwOnRequestTimeout: true,
    },
    maxAttempts: 1,
  });
  const key = s3ObjectKey(d.settings['prefix'], new Date(), opts.key);
  try {
    const res = await client.send(
      new PutObjectCommand({
        Bucket: d.settings['bucket'],
        Key: key,
        Body: gzipSync(jsonLines(records)),
        ContentType: 'application/x-ndjson',
        ContentEncoding: 'gzip',
      }),
      { abortSignal: AbortSignal.timeout(opts.timeoutMs) },
    );
    return outcome(res.$metadata.httpStatusCode ?? 200, null, key);
  } catch (err) {
    const e = err as Error & { $metadata?: { httpStatusCode?: number } };
    return outcome(e.$metadata?.httpStatusCode ?? null, `${e.name}: ${e.message}`);
  }
}

import { createHmac } from 'node:crypto';
import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { type BlockList } from 'node:net';
import { parseNetworks } from '@hub/config';
import { type AuditStreamType } from '@hub/organizations-contract';
import { type OrganizationsConfig } from '../../organizations.config';
import { ORGANIZATIONS_CONFIG } from '../../organizations.di';
import { guardedAgents, guardedPost, type SendOutcome } from './guarded-post';
import { putS3Object } from './s3-sender';
import { datadogLogs, jsonLines, splunkEvents, type StreamRecord } from './stream-record';
import { uuidV7 } from './uuid-v7';

/** A stream's destination with its credentials opened: what a sender needs, never stored like this. */
export interface OpenDestination {
  type: AuditStreamType;
  settings: Record<string, string>;
  credentials: Record<string, string>;
  organization: string;
}

/** Standard Webhooks headers: `v1,<base64 HMAC-SHA256(secret bytes, "<id>.<timestamp>.<body>")>`. */
export function standardWebhookHeaders(
  id: string,
  secret: string,
  body: Buffer,
  now = Date.now(),
): Record<string, string> {
  const timestamp = String(Math.floor(now / 1000));
  const mac = createHmac('sha256', Buffer.from(secret, 'utf8'))
    .update(`${id}.${timestamp}.`)
    .update(body)
    .digest('base64');
  return { 'webhook-id': id, 'webhook-timestamp': timestamp, 'webhook-signature': `v1,${mac}` };
}

/** `<url>/services/collector/event`, unless the URL already names the endpoint. */
export function splunkEndpoint(url: string): string {
  const base = url.replace(/\/+$/, '');
  return base.endsWith('/services/collector/event') ? base : `${base}/services/collector/event`;
}

/**
 * Sends batches to the four destination types, each in its own protocol, every address through the
 * SSRF guard (HUB_AUDIT_STREAM_ALLOWED_NETWORKS lets an operator allow a private network).
 */
@Injectable()
export class AuditSenders implements OnApplicationShutdown {
  private readonly allowed: BlockList;
  private readonly agents: ReturnType<typeof guardedAgents>;
  readonly timeoutMs: number;

  constructor(@Inject(ORGANIZATIONS_CONFIG) private readonly config: OrganizationsConfig) {
    this.allowed = parseNetworks(config.HUB_AUDIT_STREAM_ALLOWED_NETWORKS, 'HUB_AUDIT_STREAM_ALLOWED_NETWORKS');
    this.agents = guardedAgents(this.allowed);
    // Under the lease, so a replica that renews only between batches keeps the stream while it sends.
    this.timeoutMs = Math.min(10_000, Math.floor(config.HUB_AUDIT_STREAM_LEASE_MS * 0.6));
  }

  onApplicationShutdown(): void {
    this.agents.http.destroy();
    this.agents.https.destroy();
  }

  /** One batch; `batchId` is the same for every retry of the same records (the receiver may dedupe on it). */
  send(d: OpenDestination, records: StreamRecord[], batchId: string): Promise<SendOutcome> {
    const opts = { timeoutMs: this.timeoutMs, allowed: this.allowed, agents: this.agents };
    const agent = 'hub-audit-stream/1';
    switch (d.type) {
      case 'https': {
        const body = jsonLines(records);
        return guardedPost(
          d.settings['url'],
          body,
          {
            'content-type': 'application/x-ndjson',
            'user-agent': agent,
            ...standardWebhookHeaders(batchId, d.credentials['secret'], body),
          },
          opts,
        );
      }
      case 'splunk':
        return guardedPost(
          splunkEndpoint(d.settings['url']),
          splunkEvents(records),
          {
            'content-type': 'application/json',
            'user-agent': agent,
            authorization: `Splunk ${d.credentials['token']}`,
          },
          opts,
        );
      case 'datadog': {
        const base = this.config.HUB_AUDIT_STREAM_DATADOG_URL ?? `https://http-intake.logs.${d.settings['site']}`;
        return guardedPost(
          `${base.replace(/\/+$/, '')}/api/v2/logs`,
          datadogLogs(records, d.organization),
          { 'content-type': 'application/json', 'user-agent': agent, 'dd-api-key': d.credentials['apiKey'] },
          opts,
        );
      }
      case 's3':
        return putS3Object(d, records, { ...opts, key: uuidV7() });
    }
  }
}

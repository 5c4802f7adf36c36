import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { createInterface } from 'node:readline';
import { type KubeConnection } from './kube-config';

/** An answer of the API other than 2xx; `status` is the HTTP status (404, 409, 410…). */
export class KubeApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: string,
    what: string,
  ) {
    super(`Kubernetes API ${what} answered ${status}: ${body.slice(0, 300)}`);
  }
}

export interface KubeRequest {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  path: string;
  body?: unknown;
  contentType?: string;
}

/**
 * The few calls the runner makes, over node:http(s): JSON in and out, and line streams (watch
 * events, followed pod logs). Bearer token or client certificate, the cluster's CA.
 */
export class KubeClient {
  constructor(private readonly conn: KubeConnection) {}

  async json<T>(req: KubeRequest): Promise<T> {
    const res = await this.open(req);
    const text = await new Promise<string>((resolve, reject) => {
      const chunks: Buffer[] = [];
      res
        .on('data', (c: Buffer) => chunks.push(c))
        .on('end', () => resolve(Buffer.concat(chunks).toString('utf8')))
        .on('error', reject);
    });
    if ((res.statusCode ?? 0) >= 300) throw new KubeApiError(res.statusCode ?? 0, text, `${req.method} ${req.path}`);
    return (text ? JSON.parse(text) : {}) as T;
  }

  /** A streamed GET (watch, log follow): calls `onLine` per line; resolves when the server ends it or `signal` aborts. */
  async lines(path: string, onLine: (line: string) => void, signal: AbortSignal): Promise<void> {
    const res = await this.open({ method: 'GET', path }, signal);
    if ((res.statusCode ?? 0) >= 300) {
      res.resume();
      throw new KubeApiError(res.statusCode ?? 0, '', `GET ${path}`);
    }
    await new Promise<void>((resolve) => {
      const rl = createInterface({ input: res, crlfDelay: Infinity });
      rl.on('line', onLine);
      rl.on('close', resolve);
      res.on('error', () => resolve());
      signal.addEventListener(
        'abort',
        () => {
          res.destroy();
          resolve();
        },
        { once: true },
      );
    });
  }

  private open(req: KubeRequest, signal?: AbortSignal): Promise<IncomingMessage> {
    const url = new URL(this.conn.server + req.path);
    const body = req.body === undefined ? undefined : Buffer.from(JSON.stringify(req.body));
    const headers: Record<string, string> = { accept: 'application/json' };
    if (this.conn.token) headers['authorization'] = `Bearer ${this.conn.token}`;
    if (body) {
      headers['content-type'] = req.contentType ?? 'application/json';
      headers['content-length'] = String(body.length);
    }
    const options = {
      method: req.method,
      headers,
      signal,
      ca: this.conn.ca,
      cert: this.conn.cert,
      key: this.conn.key,
      rejectUnauthorized: !this.conn.insecureSkipTlsVerify,
    };
    return new Promise((resolve, reject) => {
      const r = (url.protocol === 'https:' ? httpsRequest : httpRequest)(url, options, resolve);
      r.on('error', reject);
      r.end(body);
    });
  }
}

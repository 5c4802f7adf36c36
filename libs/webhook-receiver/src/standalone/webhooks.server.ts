import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { OPEN_ROUTES_WARNING, resolveWebhookSecret } from '../core/receiver.config';
import { ReceiverErrors } from '../core/receiver.errors';
import {
  consoleLogger,
  type ReceiverLogger,
  type ReceiverResponse,
  type WebhookHandlerFn,
} from '../core/receiver.types';
import { errorResponse, internalError, WebhookDeliveryPipeline } from '../core/webhook-delivery.pipeline';
import { WebhookHandlerRegistry } from '../core/webhook-handler.registry';
import { renderLandingPage } from './landing-page.template';
import { DEFAULT_MAX_BODY_BYTES, readRequestBody } from './request-body.reader';

export interface WebhooksServerOptions {
  /** Shared secret; defaults to `WEBHOOK_SECRET`. Without one the routes are open (with a warning). */
  secret?: string;
  /** Defaults to 7860, the port a hub Space serves; 0 picks a free port. */
  port?: number;
  /** Defaults to 0.0.0.0: a receiver must be reachable by the hub. */
  host?: string;
  /** Larger bodies are refused with 413. Default 1 MiB. */
  maxBodyBytes?: number;
  /** Accepted clock difference for `webhook-timestamp`, and how long delivery ids are remembered. Default 300. */
  toleranceSeconds?: number;
  /** How many delivery ids are remembered for replay protection. Default 10,000. */
  seenIdsCapacity?: number;
  /** Hub base URL shown in the landing page's registration example. */
  hubUrl?: string;
  logger?: ReceiverLogger;
}

export interface ListeningAddress {
  address: string;
  port: number;
  url: string;
}

const WEBHOOK_ROUTE = /^\/webhooks\/([^/]+)\/?$/;
/** Only plain host[:port] values are echoed into the landing page's commands. */
const SAFE_HOST = /^[A-Za-z0-9.\-:[\]]+$/;

/**
 * Standalone receiver on node:http: several handlers, one route each, plus a landing page.
 * All rules live in WebhookDeliveryPipeline; this class reads bodies and writes responses.
 */
export class WebhooksServer {
  private readonly registry = new WebhookHandlerRegistry();
  private readonly pipeline: WebhookDeliveryPipeline;
  private readonly logger: ReceiverLogger;
  private readonly maxBodyBytes: number;
  private server?: Server;

  constructor(private readonly options: WebhooksServerOptions = {}) {
    this.logger = options.logger ?? consoleLogger;
    this.maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
    this.pipeline = new WebhookDeliveryPipeline({
      secret: resolveWebhookSecret(options.secret),
      registry: this.registry,
      logger: this.logger,
      toleranceSeconds: options.toleranceSeconds,
      seenIdsCapacity: options.seenIdsCapacity,
    });
  }

  /** Registers `handler` on `/webhooks/<name>`; throws on a duplicate or missing name. */
  add(handler: WebhookHandlerFn, options: { name?: string } = {}): this {
    this.registry.add(handler, options.name);
    return this;
  }

  get routes(): string[] {
    return this.registry.names().map((name) => `/webhooks/${name}`);
  }

  async listen(): Promise<ListeningAddress> {
    if (this.server) throw new Error('The webhooks server is already listening.');
    const server = createServer((req, res) => void this.onRequest(req, res));
    this.server = server;
    try {
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(this.options.port ?? 7860, this.options.host ?? '0.0.0.0', () => {
          server.off('error', reject);
          resolve();
        });
      });
    } catch (error) {
      this.server = undefined; // e.g. EADDRINUSE: let the caller try another port
      throw error;
    }
    const { address, port } = server.address() as AddressInfo;
    const shownHost =
      address === '0.0.0.0' || address === '::' ? 'localhost' : address.includes(':') ? `[${address}]` : address;
    const url = `http://${shownHost}:${port}`;
    if (!this.pipeline.secured) this.logger.warn(OPEN_ROUTES_WARNING);
    this.logger.log(`Webhooks server listening on ${url} (${this.routes.join(', ') || 'no handler yet'})`);
    return { address, port, url };
  }

  async close(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    await new Promise<void>((resolve, reject) => {
      server.close((error) => (error ? reject(error) : resolve()));
      // Keep-alive sockets would otherwise hold close() open until they time out.
      server.closeIdleConnections();
    });
  }

  private async onRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const method = req.method ?? 'GET';
    const url = req.url ?? '/';
    const queryAt = url.indexOf('?');
    const path = queryAt === -1 ? url : url.slice(0, queryAt);
    try {
      if (path === '/') return this.serveLandingPage(req, res, method);
      const match = WEBHOOK_ROUTE.exec(path);
      if (!match?.[1]) return send(res, errorResponse(ReceiverErrors.pathNotFound(path)));
      const admission = this.pipeline.admit(match[1], method, req.headers);
      if (!admission.ok) return send(res, admission.response);
      const read = await readRequestBody(req, this.maxBodyBytes);
      if (!read.ok && read.reason === 'aborted') return void res.destroy();
      if (!read.ok) {
        // The rest of an oversized body is not worth reading: answer, then drop the connection.
        res.setHeader('Connection', 'close');
        return send(res, errorResponse(ReceiverErrors.bodyTooLarge(this.maxBodyBytes)));
      }
      send(res, await this.pipeline.deliver(admission.handler, req.headers, { raw: read.body }));
    } catch (error) {
      // The pipeline never throws; this is a bug or a socket failure, still answered as JSON.
      const response = internalError(this.logger, 'Internal error', `Webhook request ${method} ${path} failed`, error);
      if (res.headersSent) res.destroy();
      else send(res, response);
    }
  }

  private serveLandingPage(req: IncomingMessage, res: ServerResponse, method: string): void {
    if (method !== 'GET' && method !== 'HEAD')
      return send(res, errorResponse(ReceiverErrors.methodNotAllowed(method, 'GET, HEAD')));
    const host = req.headers.host && SAFE_HOST.test(req.headers.host) ? req.headers.host : 'localhost';
    const proto = req.headers['x-forwarded-proto'] === 'https' ? 'https' : 'http';
    const html = renderLandingPage({
      baseUrl: `${proto}://${host}`,
      routes: this.registry.names(),
      secured: this.pipeline.secured,
      hubUrl: this.options.hubUrl,
    });
    res.writeHead(200, {
      'Content-Type': 'text/html; charset=utf-8',
      'Content-Length': Buffer.byteLength(html),
      // The page needs nothing but its inline style.
      'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'",
    });
    res.end(method === 'HEAD' ? undefined : html);
  }
}

function send(res: ServerResponse, response: ReceiverResponse): void {
  res.writeHead(response.status, {
    'Content-Type': 'application/json; charset=utf-8',
    ...response.headers,
    // Without a length, writeHead + end falls back to chunked encoding: more bytes, and a
    // writev of three buffers instead of one write per response.
    'Content-Length': Buffer.byteLength(response.body),
  });
  res.end(response.body);
}

export function createWebhooksServer(options: WebhooksServerOptions = {}): WebhooksServer {
  return new WebhooksServer(options);
}

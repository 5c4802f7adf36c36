import { randomUUID } from 'node:crypto';
import { validateWebhookPayload } from '../payload/webhook-payload.validator';
import { ReceiverErrors, type WebhookReceiverError } from './receiver.errors';
import { type HeaderBag, type ReceiverLogger, type ReceiverResponse } from './receiver.types';
import { DEFAULT_SEEN_IDS_CAPACITY, SeenDeliveryIdsCache } from './seen-delivery-ids.cache';
import { type RegisteredHandler, type WebhookHandlerRegistry } from './webhook-handler.registry';
import { WebhookSecretVerifier } from './webhook-secret.verifier';
import { DEFAULT_TOLERANCE_SECONDS, hasSignatureHeaders, WebhookSignatureVerifier } from './webhook-signature.verifier';

export interface DeliveryPipelineOptions {
  /** Shared secret; undefined means the routes are open to everyone. */
  secret?: string;
  registry: WebhookHandlerRegistry;
  logger: ReceiverLogger;
  toleranceSeconds?: number;
  seenIdsCapacity?: number;
  now?: () => number;
}

/** The body as the front end has it: raw bytes (always, standalone) or only a parsed value. */
export interface DeliveryBody {
  raw?: Buffer;
  parsed?: unknown;
}

export type Admission = { ok: true; handler: RegisteredHandler } | { ok: false; response: ReceiverResponse };

const JSON_HEADERS = { 'Content-Type': 'application/json; charset=utf-8' } as const;

/**
 * The one implementation of the receiver rules (spec 4.8 plus signing and replay protection).
 * The standalone server and the Nest module are thin front ends that only move bytes.
 *
 * Two phases, so a front end that reads the body itself (the standalone server) never buffers
 * a body for a request that is refused on its headers alone.
 */
export class WebhookDeliveryPipeline {
  private readonly secretVerifier?: WebhookSecretVerifier;
  private readonly signatureVerifier?: WebhookSignatureVerifier;
  private readonly seenIds: SeenDeliveryIdsCache;

  constructor(private readonly options: DeliveryPipelineOptions) {
    const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
    if (options.secret) {
      this.secretVerifier = new WebhookSecretVerifier(options.secret);
      this.signatureVerifier = new WebhookSignatureVerifier(options.secret, tolerance, options.now);
    }
    this.seenIds = new SeenDeliveryIdsCache(
      tolerance * 1000,
      options.seenIdsCapacity ?? DEFAULT_SEEN_IDS_CAPACITY,
      options.now,
    );
  }

  get secured(): boolean {
    return this.secretVerifier !== undefined;
  }

  /** Phase 1: route, method, secret header. */
  admit(name: string, method: string, headers: HeaderBag): Admission {
    const handler = this.options.registry.get(name);
    if (!handler) return refuse(ReceiverErrors.routeNotFound(name));
    if (method !== 'POST') return refuse(ReceiverErrors.methodNotAllowed(method));
    const secretError = this.secretVerifier?.check(headers);
    return secretError ? refuse(secretError) : { ok: true, handler };
  }

  /** Phase 2: signature, replay, JSON, payload shape, then the handler. Never throws. */
  async deliver(handler: RegisteredHandler, headers: HeaderBag, body: DeliveryBody): Promise<ReceiverResponse> {
    let webhookId: string | undefined;
    if (this.signatureVerifier && body.raw) {
      const check = this.signatureVerifier.check(headers, body.raw);
      if (check.kind === 'rejected') return refuse(check.error).response;
      if (check.kind === 'verified') webhookId = check.webhookId;
    } else if (this.signatureVerifier && hasSignatureHeaders(headers)) {
      // Signed, but only a parsed body is at hand: fail closed and loudly, since re-serialising
      // the parsed body would verify different bytes.
      return internalError(
        this.options.logger,
        'Cannot verify signatures',
        `Webhook route "${handler.name}" cannot verify ` +
          'webhook-signature: the raw request body is not available (with NestJS, create the app with {rawBody: true})',
      );
    }
    if (webhookId !== undefined) {
      const state = this.seenIds.begin(webhookId);
      if (state === 'done') return respond(200, { duplicate: true });
      if (state === 'in-flight') return refuse(ReceiverErrors.deliveryInProgress(webhookId)).response;
    }
    const response = await this.run(handler, headers, body, webhookId);
    if (webhookId !== undefined) {
      if (response.status === 200) this.seenIds.complete(webhookId);
      else this.seenIds.abandon(webhookId);
    }
    return response;
  }

  private async run(handler: RegisteredHandler, headers: HeaderBag, body: DeliveryBody, webhookId?: string) {
    let value: unknown = body.parsed;
    if (body.raw) {
      try {
        value = JSON.parse(body.raw.toString('utf8'));
      } catch (error) {
        return refuse(ReceiverErrors.bodyNotJson(error instanceof Error ? error.message : String(error))).response;
      }
    }
    const validation = validateWebhookPayload(value);
    if (!validation.ok) return refuse(ReceiverErrors.payloadInvalid(validation.error)).response;
    try {
      const returned = handler.handle(validation.payload, { name: handler.name, webhookId, headers });
      // Await only what is awaitable: a synchronous handler then costs no extra microtask turn.
      const result: unknown = isThenable(returned) ? await returned : returned;
      // Serialised here so a result JSON cannot encode (BigInt, cycles) is a handler failure too.
      return { status: 200, headers: JSON_HEADERS, body: JSON.stringify(result === undefined ? {} : result) ?? '{}' };
    } catch (error) {
      return this.fail(handler, error);
    }
  }

  private fail(handler: RegisteredHandler, error: unknown): ReceiverResponse {
    return internalError(this.options.logger, 'Handler failed', `Webhook handler "${handler.name}" failed`, error);
  }
}

/**
 * A 500 whose `errorId` joins what the caller sees to the log line, without leaking the error
 * itself to the caller.
 */
export function internalError(
  logger: ReceiverLogger,
  publicMessage: string,
  logMessage: string,
  error?: unknown,
): ReceiverResponse {
  const errorId = randomUUID();
  logger.error(`${logMessage} (errorId ${errorId})`, error);
  return respond(500, { error: publicMessage, errorId });
}

export function errorResponse(error: WebhookReceiverError): ReceiverResponse {
  return {
    status: error.status,
    headers: { ...JSON_HEADERS, ...error.headers },
    body: JSON.stringify({ error: error.message }),
  };
}

function refuse(error: WebhookReceiverError): { ok: false; response: ReceiverResponse } {
  return { ok: false, response: errorResponse(error) };
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';
}

function respond(status: number, body: unknown): ReceiverResponse {
  return { status, headers: JSON_HEADERS, body: JSON.stringify(body) };
}

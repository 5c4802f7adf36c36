import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource } from 'typeorm';
import { type CreateJobDto, JobsRpc } from '@hub/jobs-contract';
import { type DeliveryTrigger } from '@hub/webhooks-contract';
import { RpcClient } from '@hub/messaging';
import { type BlockList } from 'node:net';
import { type CustomHeader, CustomHeaders } from '../management/custom-headers';
import { type WebhookRow } from '../management/webhook-row';
import { parseNetworks, SecretBox } from '@hub/config';
import { type WebhooksConfig } from '../webhooks.config';
import { WEBHOOKS_CONFIG, WEBHOOKS_DS } from '../webhooks.di';
import { DeliveryLogStore, type LoggedAttempt, searchKeys, type SearchKeys } from './delivery-log.store';
import { postJson, type SendResult } from './http-sender';
import { standardWebhookHeaders } from './signature';

export interface AttemptInput {
  webhook: WebhookRow;
  deliveryId: string;
  /** The event's payload v3 without `webhook`; the attempt adds `webhook: {id, version: 3}`. */
  eventPayload: string;
  trigger: DeliveryTrigger;
  attempt: number;
  /** The attempt span's trace context, sent as `traceparent` (decision 0504). */
  traceparent?: string;
}

export interface SentAttempt {
  ok: boolean;
  log: LoggedAttempt;
}

export interface AttemptOutcome {
  result: SendResult;
  ok: boolean;
  logId: string;
}

/** Opened secrets and custom headers kept, and events' search keys: at most this many of each. */
const MAX_KEPT = 1024;

/** `map.set`, the oldest entry dropped past MAX_KEPT. */
function keep<V>(map: Map<string, V>, key: string, value: V): V {
  map.set(key, value);
  if (map.size > MAX_KEPT) map.delete(map.keys().next().value as string);
  return value;
}

/** One attempt at one webhook, URL or job, logged whatever happens. */
@Injectable()
export class DeliveryAttempts {
  private readonly allowed: BlockList;
  /**
   * Secrets and custom headers as opened, by their sealed text (decision 0512): opened once per
   * webhook rather than per claimed batch (a batch leased at the intake is one event's rows, one
   * per webhook). A new secret is a new sealed text (a fresh IV), so a change is never missed.
   */
  private readonly secrets = new Map<string, string>();
  private readonly customs = new Map<string, CustomHeader[]>();
  /** The log's search keys of an event's payload (decision 0502), read once per event, not per attempt. */
  private readonly keys = new Map<string, SearchKeys>();

  constructor(
    private readonly box: SecretBox,
    @InjectDataSource(WEBHOOKS_DS) private readonly ds: DataSource,
    private readonly rpc: RpcClient,
    @Inject(WEBHOOKS_CONFIG) private readonly config: WebhooksConfig,
  ) {
    this.allowed = parseNetworks(config.HUB_WEBHOOK_ALLOWED_NETWORKS);
  }

  /** One attempt, logged now (replay). */
  async run(a: AttemptInput): Promise<AttemptOutcome> {
    const sent = await this.send(a);
    const logId = await DeliveryLogStore.add(this.ds.manager, sent.log);
    return { result: sent.log.result, ok: sent.ok, logId };
  }

  /** One attempt, not logged yet: the caller records `log` (the worker does so in groups). */
  async send(
    a: AttemptInput,
    secret = this.secretOf(a.webhook),
    custom = this.customOf(a.webhook),
  ): Promise<SentAttempt> {
    const body = withWebhook(a.eventPayload, a.webhook.id);
    // Custom headers first: ours follow and win (the names they could clash with are refused anyway).
    const headers: Record<string, string> = {};
    for (const h of custom) headers[h.name.toLowerCase()] = h.value;
    Object.assign(headers, { 'content-type': 'application/json', 'user-agent': 'hub-webhooks/1' });
    if (a.traceparent) headers['traceparent'] = a.traceparent;
    let result: SendResult;
    if (a.webhook.url !== null) {
      if (secret !== undefined)
        Object.assign(headers, { 'x-webhook-secret': secret }, standardWebhookHeaders(a.deliveryId, secret, body));
      else headers['webhook-id'] = a.deliveryId;
      result = await postJson(a.webhook.url, body, headers, this.config.HUB_WEBHOOK_TIMEOUT_MS, this.allowed);
    } else {
      result = await this.startJob(a.webhook, body, secret);
    }
    const ok = result.status !== null && result.status >= 200 && result.status < 300;
    // The log keeps the names of the custom headers, never their values (sealed at rest, decision 0502).
    const logged = { ...headers };
    for (const h of custom) logged[h.name.toLowerCase()] = '[redacted]';
    return {
      ok,
      log: {
        webhookId: a.webhook.id,
        deliveryId: a.deliveryId,
        trigger: a.trigger,
        attempt: a.attempt,
        requestHeaders: logged,
        payload: body,
        search: this.searchKeysOf(a.eventPayload),
        result,
      },
    };
  }

  /** Kept for payloads up to 8 KB (at most MAX_KEPT of them): a larger one is read each time. */
  private searchKeysOf(eventPayload: string): SearchKeys {
    if (eventPayload.length > 8192) return searchKeys(eventPayload);
    return this.keys.get(eventPayload) ?? keep(this.keys, eventPayload, searchKeys(eventPayload));
  }

  customOf(webhook: WebhookRow): CustomHeader[] {
    const sealed = webhook.headers_enc;
    if (!sealed) return [];
    return this.customs.get(sealed) ?? keep(this.customs, sealed, CustomHeaders.open(this.box, webhook));
  }

  secretOf(webhook: WebhookRow): string | undefined {
    const sealed = webhook.secret_enc;
    if (!sealed) return undefined;
    return this.secrets.get(sealed) ?? keep(this.secrets, sealed, this.box.open(sealed));
  }

  /** Job webhooks (spec 4.8 rule 5): the jobs service starts it; no responder is a retriable failure. */
  private async startJob(w: WebhookRow, body: string, secret: string | undefined): Promise<SendResult> {
    const started = performance.now();
    const repo = (JSON.parse(body) as { repo?: { name?: string; type?: string } }).repo ?? {};
    const environment: Record<string, string> = {
      WEBHOOK_PAYLOAD: body,
      WEBHOOK_REPO_ID: repo.name ?? '',
      WEBHOOK_REPO_TYPE: repo.type ?? '',
    };
    if (secret !== undefined) environment['WEBHOOK_SECRET'] = secret;
    try {
      const ctx = { requestId: `webhook-${w.id}`, userId: w.owner_id, userName: w.owner_name };
      // jobSourceId: the source job's spec as it is now, read with the owner's rights (decision 0501).
      const spec =
        w.job ??
        copyOf(
          (
            await this.rpc.call(
              JobsRpc.Spec,
              { jobId: w.job_source_id ?? '', reader: { id: w.owner_id, name: w.owner_name } },
              ctx,
            )
          ).spec,
        );
      const job = await this.rpc.call(
        JobsRpc.Create,
        {
          // The 4.6 job object, validated again by the jobs service against its own class.
          namespace: w.owner_name,
          spec: spec as CreateJobDto,
          initiator: { type: 'webhook', id: w.id },
          environment,
        },
        ctx,
      );
      return {
        status: 200,
        headers: {},
        body: JSON.stringify({ jobId: job.id }),
        error: null,
        durationMs: Math.round(performance.now() - started),
      };
    } catch (err) {
      return {
        status: null,
        headers: {},
        body: '',
        error: `jobs.job.create: ${err instanceof Error ? err.message : String(err)}`,
        durationMs: Math.round(performance.now() - started),
      };
    }
  }
}

/** A source job's spec as the copy's: it runs in the webhook owner's namespace, where the source's resource group is not (decision 0014). */
function copyOf(spec: Omit<CreateJobDto, 'secrets'>): Omit<CreateJobDto, 'secrets' | 'resourceGroupId'> {
  const copy = { ...spec };
  delete copy.resourceGroupId;
  return copy;
}

/** The event's JSON object with `webhook` appended, without parsing it again (intake wrote it with JSON.stringify). */
function withWebhook(eventPayload: string, webhookId: string): string {
  const trimmed = eventPayload.trimEnd();
  if (!trimmed.endsWith('}')) return JSON.stringify({ webhook: { id: webhookId, version: 3 } });
  const empty = /^\{\s*\}$/.test(trimmed);
  return `${trimmed.slice(0, -1)}${empty ? '' : ','}"webhook":{"id":${JSON.stringify(webhookId)},"version":3}}`;
}

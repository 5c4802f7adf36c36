import { Inject, Injectable } from '@nestjs/common';
import { avatarUrl, type RequestContext, type WebhookDomain } from '@hub/contracts';
import { type CreateJobDto } from '@hub/jobs-contract';
import {
  SUSPENDED,
  type WatchedItemView,
  type WebhookDisabled,
  type WebhookJobView,
  type WebhookOwnerRpc,
  type WebhookView,
} from '@hub/webhooks-contract';
import { RpcClient } from '@hub/messaging';
import { type WebhooksConfig } from '../webhooks.config';
import { WEBHOOKS_CONFIG } from '../webhooks.di';
import { sourceSpecs } from './source-job';

/** A webhook as stored (the store's `WEBHOOK_COLUMNS`) and as answered (`toView`, `WebhookViews`). */
export interface WebhookRow {
  id: string;
  owner_id: string;
  owner_name: string;
  url: string | null;
  job: CreateJobDto | null;
  job_source_id: string | null;
  secret_enc: string | null;
  /** The custom headers, a sealed JSON list of {name, value} (decision 0502). */
  headers_enc: string | null;
  domains: WebhookDomain[];
  disabled: string;
  last_trigger_at: Date | null;
  watched: { type: WatchedItemView['type']; name: string }[];
}

export const WEBHOOK_COLUMNS = `w.id, w.owner_id, w.owner_name, w.url, w.job, w.job_source_id, w.secret_enc, w.headers_enc, w.domains, w.disabled, w.last_trigger_at,
  COALESCE((SELECT json_agg(json_build_object('type', x.type, 'name', x.name) ORDER BY x.position) FROM webhooks.watched x WHERE x.webhook_id = w.id), '[]'::json) AS watched`;

export function disabledOf(value: string): WebhookDisabled {
  return value === SUSPENDED ? SUSPENDED : value === 'true';
}

/** Spec 2.5 as returned: secrets by name only, the defaults filled in. */
function jobView(job: Omit<CreateJobDto, 'secrets'> & Pick<CreateJobDto, 'secrets'>): WebhookJobView {
  const view: WebhookJobView = {
    flavor: job.flavor,
    environment: job.environment ?? {},
    timeoutSeconds: job.timeoutSeconds ?? null,
  };
  if (job.dockerImage !== undefined) view.dockerImage = job.dockerImage;
  if (job.spaceId !== undefined) view.spaceId = job.spaceId;
  if (job.arguments !== undefined) view.arguments = job.arguments;
  if (job.command !== undefined) view.command = job.command;
  if (job.labels !== undefined) view.labels = job.labels;
  if (job.secrets !== undefined) view.secrets = Object.keys(job.secrets);
  return view;
}

/** `source`: the spec of the row's jobSourceId, answered as its `job` (the job a trigger starts). */
export function toView(row: WebhookRow, publicUrl: string, source?: Omit<CreateJobDto, 'secrets'>): WebhookView {
  const view: WebhookView = {
    id: row.id,
    disabled: disabledOf(row.disabled),
    watched: row.watched.map((w) =>
      w.type === 'user' || w.type === 'org' ? { ...w, avatarUrl: avatarUrl(publicUrl, w.name) } : { ...w },
    ),
    hasSecret: row.secret_enc !== null,
    domains: row.domains,
  };
  if (row.url !== null) view.url = row.url;
  if (row.job !== null) view.job = jobView(row.job);
  else if (source) view.job = jobView(source);
  if (row.job_source_id !== null) view.jobSourceId = row.job_source_id;
  if (row.last_trigger_at !== null) view.lastTriggerAt = new Date(row.last_trigger_at).toISOString();
  return view;
}

/** Rows as answered: a webhook given by jobSourceId answers that job's spec as its `job` too. */
@Injectable()
export class WebhookViews {
  constructor(
    private readonly rpc: RpcClient,
    @Inject(WEBHOOKS_CONFIG) private readonly config: WebhooksConfig,
  ) {}

  async render(rows: WebhookRow[], owner: WebhookOwnerRpc, ctx: RequestContext): Promise<WebhookView[]> {
    const sourceIds = rows.flatMap((r) => (r.job === null && r.job_source_id !== null ? [r.job_source_id] : []));
    const specs = sourceIds.length > 0 ? await sourceSpecs(this.rpc, sourceIds, owner, ctx) : new Map();
    return rows.map((r) =>
      toView(r, this.config.publicUrl, r.job_source_id === null ? undefined : specs.get(r.job_source_id)),
    );
  }
}

import { type WebhookDomain } from '@hub/contracts';
import { type CreateJobDto } from '@hub/jobs-contract';
import { type WatchedItemDto, type WebhookBodyDto } from '@hub/webhooks-contract';
import { type WebhookRow } from './webhook-row';
import {
  DomainsRequiredError,
  JobResourceGroupError,
  WatchedRequiredError,
  WebhookTargetError,
} from './webhooks.errors';

/** What a create or update writes: the target, the lists, and the secret when it changes. */
export interface WebhookChanges {
  url: string | null;
  job: CreateJobDto | null;
  jobSourceId: string | null;
  watched: WatchedItemDto[];
  domains: WebhookDomain[];
  /** undefined: keep; null: remove; a string: set. */
  secret: string | null | undefined;
}

/**
 * Decision 0500: `null` is absent; a webhook has exactly one target (url, job or jobSourceId); on
 * update an absent target, absent domains, an empty or absent `watched` and an absent secret keep
 * what is there (older Python clients send `watched: []` and nulls for what the caller left out).
 */
export function changesFrom(body: WebhookBodyDto, current?: WebhookRow): WebhookChanges {
  const targets = [body.url, body.job, body.jobSourceId].filter((t) => t !== null && t !== undefined).length;
  if (targets > 1 || (targets === 0 && !current)) throw new WebhookTargetError();
  const watched = body.watched && body.watched.length > 0 ? body.watched : current?.watched;
  if (!watched || watched.length === 0) throw new WatchedRequiredError();
  const domains = body.domains ?? current?.domains;
  if (!domains || domains.length === 0) throw new DomainsRequiredError();
  if (body.job?.resourceGroupId) throw new JobResourceGroupError(body.job.resourceGroupId);
  const keepTarget = targets === 0 && current;
  return {
    url: keepTarget ? current.url : (body.url ?? null),
    job: keepTarget ? current.job : (body.job ?? null),
    jobSourceId: keepTarget ? current.job_source_id : (body.jobSourceId?.toLowerCase() ?? null),
    watched: dedupe(watched),
    domains: [...new Set(domains)],
    secret:
      body.secret === null || body.secret === undefined
        ? current
          ? undefined
          : null
        : body.secret === ''
          ? null
          : body.secret,
  };
}

function dedupe(items: WatchedItemDto[]): WatchedItemDto[] {
  const seen = new Set<string>();
  return items.filter((w) => {
    const key = `${w.type}:${w.name.toLowerCase()}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

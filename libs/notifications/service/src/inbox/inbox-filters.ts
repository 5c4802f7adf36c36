import { type RequestContext } from '@hub/contracts';
import { type NotificationFilters } from '@hub/notifications-contract';
import { InvalidLastUpdateError, NoCallerError } from './inbox.errors';

/** The caller's user id: every notification RPC acts on the caller's own rows only. */
export function callerOf(ctx: RequestContext): string {
  if (!ctx.userId) throw new NoCallerError();
  return ctx.userId;
}

/**
 * The WHERE conditions of the spec 4.1 filters over `n` (notifications) joined with `t`
 * (threads); `$1` is always the user id. Values go in `params`, never into the text.
 */
export function filterConditions(f: NotificationFilters, params: unknown[]): string[] {
  const add = (v: unknown): string => {
    params.push(v);
    return `$${params.length}`;
  };
  const c: string[] = [];
  if (f.readStatus === 'unread') c.push('NOT n.read');
  if (f.repoType) c.push(`t.type = 'repo' AND t.repo_type = ${add(f.repoType)}`);
  if (f.repoName) c.push(`lower(t.repo_name) = lower(${add(f.repoName)})`);
  if (f.postAuthor) c.push(`lower(t.post_author) = lower(${add(f.postAuthor)})`);
  if (f.paperId) c.push(`t.paper_id = ${add(f.paperId)}`);
  if (f.articleId) {
    const a = add(f.articleId);
    c.push(`t.type = 'community_blog' AND (t.article_id = ${a} OR t.article_slug = ${a})`);
  }
  if (f.mention === 'participating') c.push('$1::bpchar = ANY(t.participant_ids)');
  if (f.mention === 'mentions') c.push('$1::bpchar = ANY(t.mentioned_ids)');
  if (f.lastUpdate) c.push(`n.updated_at <= ${add(instant(f.lastUpdate))}::timestamptz`);
  return c;
}

/** ISO 8601 also has week and ordinal dates and basic formats, which Date does not read. */
function instant(text: string): string {
  const t = new Date(text);
  if (Number.isNaN(t.getTime())) throw new InvalidLastUpdateError();
  return t.toISOString();
}

export function whereAll(conds: string[]): string {
  return conds.length === 0 ? 'true' : conds.map((x) => `(${x})`).join(' AND ');
}

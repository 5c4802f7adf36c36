/** The conditional headers of a poll of the inbox, as the client sent them. */
export interface InboxConditions {
  ifNoneMatch?: string;
  ifModifiedSince?: string;
}

/**
 * Whether the client already holds the page whose validators are these: If-None-Match decides
 * when present (weak comparison, `*` matches), else If-Modified-Since at whole seconds, as HTTP
 * dates carry. The notifications service and the gateway's poll cache answer by the same rule.
 */
export function inboxNotModified(etag: string, changedAtMs: number, c: InboxConditions): boolean {
  if (c.ifNoneMatch !== undefined) {
    return c.ifNoneMatch.split(',').some((t) => t.trim() === '*' || t.trim() === etag || `W/${t.trim()}` === etag);
  }
  if (c.ifModifiedSince !== undefined) {
    const since = Date.parse(c.ifModifiedSince);
    return !Number.isNaN(since) && Math.floor(changedAtMs / 1000) * 1000 <= since;
  }
  return false;
}

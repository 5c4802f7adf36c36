import { type FastifyReply } from 'fastify';

/** What a long-lived answer was opened with: the caller's token, and the organization whose access it relies on (if any). */
export interface LiveAnswerGrant {
  tokenId: string;
  userId: string;
  organizationId?: string;
  /**
   * Asked when the user's membership of that organization changes: whether the answer is still
   * allowed (a new membership elsewhere, a role that still reads, a join). False or a failure ends it.
   */
  stillAllowed?: () => Promise<boolean>;
}

interface Entry {
  grant: LiveAnswerGrant;
  end: () => void;
}

/** How long a revocation or membership change is remembered for answers still being opened. */
const RECENT_MS = 60_000;

/**
 * The answers a gateway keeps open (job log, event and metric streams, the audit log export),
 * by token id and by (organization, user), so that a token's revocation or a change of the
 * user's membership ends them at once (decision 0014). Checks at the start of a request are not
 * enough: such an answer can run for hours.
 *
 * An answer whose request started before a revocation but registers after its event arrived
 * (its access was checked, then its first read was under way) is ended as it registers (after a
 * membership change: checked as it registers): the events of the last minute are remembered with
 * their arrival time.
 */
export class LiveAnswers {
  private readonly byToken = new Map<string, Set<Entry>>();
  private readonly byMember = new Map<string, Set<Entry>>();
  private readonly recent = new Map<string, number>();

  /**
   * Registers the open answer of `reply`: `end` closes it when its grant goes. It is forgotten
   * when the answer closes, whatever closed it.
   */
  add(reply: FastifyReply, grant: LiveAnswerGrant, end: () => void): void {
    const startedAt = Date.now() - reply.elapsedTime;
    const entry: Entry = { grant, end };
    if (this.revokedSince(grant, startedAt)) {
      end();
      return;
    }
    const keys = this.keysOf(grant);
    put(this.byToken, keys.token, entry);
    if (keys.member) put(this.byMember, keys.member, entry);
    reply.raw.once('close', () => {
      take(this.byToken, keys.token, entry);
      if (keys.member) take(this.byMember, keys.member, entry);
    });
    if (keys.member && (this.recent.get(keys.member) ?? -Infinity) >= startedAt) recheck(entry);
  }

  /** Tokens revoked: their answers end; with `organizationId`, only those opened on that organization. */
  tokensRevoked(tokenIds: readonly string[], organizationId?: string): void {
    for (const id of tokenIds) {
      this.remember(`t|${id}|${organizationId ?? ''}`);
      for (const e of [...(this.byToken.get(id) ?? [])]) {
        if (organizationId === undefined || e.grant.organizationId === organizationId) e.end();
      }
    }
  }

  /**
   * These users' membership of the organization changed (joined, removed, a new role, a resource
   * group): each of their answers on it asks whether it is still allowed, and ends if not. The
   * event does not say what changed, and ending on every change cut answers a join had just
   * allowed (an organization's creation announces its admins).
   */
  membershipChanged(organizationId: string, userIds: readonly string[]): void {
    for (const userId of userIds) {
      const key = memberKey(organizationId, userId);
      this.remember(key);
      for (const e of [...(this.byMember.get(key) ?? [])]) recheck(e);
    }
  }

  /** Open answers (for tests and metrics). */
  get size(): number {
    let n = 0;
    for (const set of this.byToken.values()) n += set.size;
    return n;
  }

  private keysOf(grant: LiveAnswerGrant): { token: string; member?: string } {
    return {
      token: grant.tokenId,
      member: grant.organizationId ? memberKey(grant.organizationId, grant.userId) : undefined,
    };
  }

  private revokedSince(grant: LiveAnswerGrant, since: number): boolean {
    const keys = [`t|${grant.tokenId}|`];
    if (grant.organizationId) keys.push(`t|${grant.tokenId}|${grant.organizationId}`);
    return keys.some((k) => (this.recent.get(k) ?? -Infinity) >= since);
  }

  private remember(key: string): void {
    const now = Date.now();
    // Map order is insertion order: re-inserting keeps the oldest first, so pruning stops early.
    this.recent.delete(key);
    this.recent.set(key, now);
    for (const [k, at] of this.recent) {
      if (at > now - RECENT_MS) break;
      this.recent.delete(k);
    }
  }
}

function memberKey(organizationId: string, userId: string): string {
  return `m|${organizationId}|${userId}`;
}

/** Ends the answer unless its grant says it is still allowed (no check given: it ends). */
function recheck(entry: Entry): void {
  const ask = entry.grant.stillAllowed;
  if (!ask) {
    entry.end();
    return;
  }
  ask().then(
    (allowed) => allowed || entry.end(),
    () => entry.end(),
  );
}

function put(map: Map<string, Set<Entry>>, key: string, entry: Entry): void {
  const set = map.get(key);
  if (set) set.add(entry);
  else map.set(key, new Set([entry]));
}

function take(map: Map<string, Set<Entry>>, key: string, entry: Entry): void {
  const set = map.get(key);
  if (!set) return;
  set.delete(entry);
  if (set.size === 0) map.delete(key);
}

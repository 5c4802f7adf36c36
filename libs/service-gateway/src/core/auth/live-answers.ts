import { type FastifyReply } from 'fastify';

/** What a long-lived answer was opened with: the caller's token, and the organization whose access it relies on (if any). */
export interface LiveAnswerGrant {
  tokenId: string;
  userId: string;
  organizationId?: string;
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
 * (its access was checked, then its first read was under way) is ended as it registers: the
 * events of the last minute are remembered with their arrival time.
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
    if (this.changedSince(grant, startedAt)) {
      end();
      return;
    }
    const entry: Entry = { grant, end };
    const keys = this.keysOf(grant);
    put(this.byToken, keys.token, entry);
    if (keys.member) put(this.byMember, keys.member, entry);
    reply.raw.once('close', () => {
      take(this.byToken, keys.token, entry);
      if (keys.member) take(this.byMember, keys.member, entry);
    });
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
   * These users' membership of the organization changed (removed, or a new role): their answers
   * on it end. A role that still allows the answer ends it too; the client reopens it and is
   * answered with its current access, which is simpler and surer than re-checking here.
   */
  membershipChanged(organizationId: string, userIds: readonly string[]): void {
    for (const userId of userIds) {
      const key = `m|${organizationId}|${userId}`;
      this.remember(key);
      for (const e of [...(this.byMember.get(key) ?? [])]) e.end();
    }
  }

  /** Open answers (for tests and metrics). */
  get size(): number {
    let n = 0;
    for (const set of this.byToken.values()) n += set.size;
    return n;
  }

  private keysOf(grant: LiveAnswerGrant): { token: string; member?: string } {
    return { token: grant.tokenId, member: grant.organizationId ? `m|${grant.organizationId}|${grant.userId}` : undefined };
  }

  private changedSince(grant: LiveAnswerGrant, since: number): boolean {
    const keys = [`t|${grant.tokenId}|`];
    if (grant.organizationId) keys.push(`t|${grant.tokenId}|${grant.organizationId}`, `m|${grant.organizationId}|${grant.userId}`);
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

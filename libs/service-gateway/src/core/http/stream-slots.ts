import { type FastifyReply } from 'fastify';
import { HubError } from '@hub/contracts';

/** Past a cap on open streams (issue 43 item 4): 429, the message naming the cap and its variable. */
export class TooManyStreamsError extends HubError {
  constructor(whose: 'user' | 'token', limit: number, variable: string) {
    super(
      'TOO_MANY_STREAMS',
      429,
      `This ${whose} has ${limit} streams open on this gateway: the limit is ${limit} (${variable}); close one first`,
    );
  }
}

/**
 * Open server-sent-event streams per user and per token, in this gateway process (decision 0505):
 * a stream holds a slot from its opening until its connection closes, whatever closes it (the
 * client, the job's end, a revoked token). Past either cap a new stream is a 429, before anything
 * is written, so one token cannot hold thousands of streams (and their polls) open.
 */
export class StreamSlots {
  private readonly byUser = new Map<string, number>();
  private readonly byToken = new Map<string, number>();

  constructor(
    private readonly perUser: number,
    private readonly perToken: number,
  ) {}

  /** Takes a slot for `reply`'s stream, given back when its connection closes; throws TooManyStreamsError past a cap. */
  take(reply: FastifyReply, who: { userId: string; tokenId: string }): void {
    if ((this.byUser.get(who.userId) ?? 0) >= this.perUser)
      throw new TooManyStreamsError('user', this.perUser, 'HUB_STREAMS_MAX_PER_USER');
    if ((this.byToken.get(who.tokenId) ?? 0) >= this.perToken)
      throw new TooManyStreamsError('token', this.perToken, 'HUB_STREAMS_MAX_PER_TOKEN');
    bump(this.byUser, who.userId, 1);
    bump(this.byToken, who.tokenId, 1);
    reply.raw.once('close', () => {
      bump(this.byUser, who.userId, -1);
      bump(this.byToken, who.tokenId, -1);
    });
  }

  /** Open streams of a user (for tests and metrics). */
  openOf(userId: string): number {
    return this.byUser.get(userId) ?? 0;
  }
}

function bump(counts: Map<string, number>, key: string, by: number): void {
  const n = (counts.get(key) ?? 0) + by;
  if (n > 0) counts.set(key, n);
  else counts.delete(key);
}

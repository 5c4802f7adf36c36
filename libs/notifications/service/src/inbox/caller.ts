import { type RequestContext } from '@hub/contracts';
import { NoCallerError } from './inbox.errors';

/** The caller's user id: every notification RPC acts on the caller's own rows only. */
export function callerOf(ctx: RequestContext): string {
  if (!ctx.userId) throw new NoCallerError();
  return ctx.userId;
}

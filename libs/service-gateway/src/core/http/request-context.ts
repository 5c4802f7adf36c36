import { randomUUID } from 'node:crypto';
import { type FastifyReply, type FastifyRequest } from 'fastify';
import { type AuthInfo, type RequestContext } from '@hub/contracts';

declare module 'fastify' {
  interface FastifyRequest {
    hubRequestId: string;
    hubAuth?: AuthInfo;
    hubAdmin?: boolean;
  }
}

const VALID_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Every response carries X-Request-Id: the caller's if it sent a sane one, else a new one. */
export function assignRequestId(req: FastifyRequest, reply: FastifyReply, done: () => void): void {
  const given = req.headers['x-request-id'];
  req.hubRequestId = typeof given === 'string' && VALID_ID.test(given) ? given : randomUUID();
  void reply.header('X-Request-Id', req.hubRequestId);
  done();
}

/** The context carried with every RPC for authorization and audit. */
export function contextOf(req: FastifyRequest): RequestContext {
  const ua = req.headers['user-agent'];
  return {
    requestId: req.hubRequestId,
    userId: req.hubAuth?.user.id,
    userName: req.hubAuth?.user.name,
    tokenId: req.hubAuth?.token.id,
    tokenRole: req.hubAuth?.token.role,
    ip: req.ip,
    userAgent: typeof ua === 'string' ? ua.slice(0, 300) : undefined,
    admin: req.hubAdmin || undefined,
  };
}

import { randomUUID } from 'node:crypto';
import { type IncomingMessage } from 'node:http';
import { type FastifyReply, type FastifyRequest } from 'fastify';
import { type RequestContext } from '@hub/contracts';
import { type AuthInfo } from '@hub/credentials-contract';

declare module 'fastify' {
  interface FastifyRequest {
    hubRequestId: string;
    hubAuth?: AuthInfo;
    hubAdmin?: boolean;
  }
}

const VALID_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Fastify's genReqId: the caller's X-Request-Id if it is sane, else a new one. As Fastify's own
 * request id it exists even for errors raised before any hook runs (bad URL, 414).
 */
export function requestIdFor(raw: IncomingMessage): string {
  const given = raw.headers['x-request-id'];
  return typeof given === 'string' && VALID_ID.test(given) ? given : randomUUID();
}

/** Every response carries X-Request-Id. */
export function assignRequestId(req: FastifyRequest, reply: FastifyReply, done: () => void): void {
  req.hubRequestId = req.id;
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

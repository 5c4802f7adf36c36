import { IsInt, IsOptional, Matches, Max, Min } from 'class-validator';
import { type AuthInfo } from './credentials.rpc';

const SHA256_HEX = /^[0-9a-f]{64}$/;

/**
 * A console session (decision 0800): the gateway makes the random id and sends only its SHA-256;
 * it is made from a user token (its hash) or from the admin token (a fingerprint of it), never both.
 */
export class CreateSessionRpc {
  @Matches(SHA256_HEX, { message: 'sessionHash must be a SHA-256 in lowercase hex' })
  sessionHash!: string;

  @IsOptional()
  @Matches(SHA256_HEX, { message: 'tokenHash must be a SHA-256 in lowercase hex' })
  tokenHash?: string;

  @IsOptional()
  @Matches(SHA256_HEX, { message: 'adminFingerprint must be a SHA-256 in lowercase hex' })
  adminFingerprint?: string;

  /** How long the session lives, at most 30 days. */
  @IsInt()
  @Min(60)
  @Max(30 * 86_400)
  ttlSeconds!: number;
}

/** One session, by the SHA-256 of its id. */
export class SessionRefRpc {
  @Matches(SHA256_HEX, { message: 'sessionHash must be a SHA-256 in lowercase hex' })
  sessionHash!: string;
}

/**
 * A live session: a user's (`auth`, what its token verifies to now) or an operator's
 * (`adminFingerprint`, which the gateway compares with its own admin token's).
 */
export interface SessionInfo {
  auth: AuthInfo | null;
  adminFingerprint: string | null;
  expiresAt: string;
}

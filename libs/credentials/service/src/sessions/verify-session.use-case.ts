import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource } from 'typeorm';
import {
  CredentialsRpc,
  InvalidCredentialsError,
  type SessionInfo,
  type SessionRefRpc,
} from '@hub/credentials-contract';
import { CREDENTIALS_DS } from '../credentials.di';
import { VerifyTokenUseCase } from '../tokens/verify-token.use-case';
import { iso, SessionsStore } from './sessions.store';
import { RpcHandler } from '@hub/messaging';

/**
 * A user session is exactly as good as its token right now: verifying it verifies the token again,
 * so a revoked token (or a deleted one: the row goes with it) ends every session made from it.
 */
@Injectable()
export class VerifySessionUseCase {
  constructor(
    @InjectDataSource(CREDENTIALS_DS) private readonly ds: DataSource,
    private readonly verifyToken: VerifyTokenUseCase,
  ) {}

  @RpcHandler(CredentialsRpc.VerifySession)
  async execute({ sessionHash }: SessionRefRpc): Promise<SessionInfo> {
    const row = await SessionsStore.live(this.ds.manager, sessionHash);
    if (!row) throw new InvalidCredentialsError();
    if (row.admin_fingerprint)
      return { auth: null, adminFingerprint: row.admin_fingerprint, expiresAt: iso(row.expires_at) };
    if (!row.token_hash) throw new InvalidCredentialsError();
    // Throws 401 when the token was revoked since: the session ends with it.
    const auth = await this.verifyToken.execute({ tokenHash: row.token_hash });
    return { auth, adminFingerprint: null, expiresAt: iso(row.expires_at) };
  }
}

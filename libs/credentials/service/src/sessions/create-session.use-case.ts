import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource } from 'typeorm';
import { type CreateSessionRpc, CredentialsRpc, type SessionInfo } from '@hub/credentials-contract';
import { CREDENTIALS_DS } from '../credentials.di';
import { VerifyTokenUseCase } from '../tokens/verify-token.use-case';
import { SessionSourceError } from './sessions.errors';
import { iso, SessionsStore } from './sessions.store';
import { RpcHandler } from '@hub/messaging';

/** A console session (decision 0800) from a live user token, or from the admin token's fingerprint. */
@Injectable()
export class CreateSessionUseCase {
  constructor(
    @InjectDataSource(CREDENTIALS_DS) private readonly ds: DataSource,
    private readonly verifyToken: VerifyTokenUseCase,
  ) {}

  @RpcHandler(CredentialsRpc.CreateSession)
  async execute(dto: CreateSessionRpc): Promise<SessionInfo> {
    if ((dto.tokenHash === undefined) === (dto.adminFingerprint === undefined)) throw new SessionSourceError();
    const auth = dto.tokenHash ? await this.verifyToken.execute({ tokenHash: dto.tokenHash }) : null;
    await SessionsStore.sweepExpired(this.ds.manager);
    const expiresAt = await SessionsStore.insert(this.ds.manager, {
      sessionHash: dto.sessionHash,
      tokenId: auth?.token.id ?? null,
      adminFingerprint: dto.adminFingerprint ?? null,
      ttlSeconds: dto.ttlSeconds,
    });
    return { auth, adminFingerprint: dto.adminFingerprint ?? null, expiresAt: iso(expiresAt) };
  }
}

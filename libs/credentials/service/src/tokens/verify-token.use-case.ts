import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource } from 'typeorm';
import { avatarUrl } from '@hub/contracts';
import { type AuthInfo, CredentialsRpc, InvalidCredentialsError, type VerifyTokenRpc } from '@hub/credentials-contract';
import { type CredentialsConfig } from '../credentials.config';
import { CREDENTIALS_CONFIG, CREDENTIALS_DS } from '../credentials.di';
import { TokensStore } from './tokens.store';
import { RpcHandler } from '@hub/messaging';

/** Last-used time is written at most once a minute per token: reads stay reads. */
const LAST_USED_RESOLUTION_MS = 60_000;

@Injectable()
export class VerifyTokenUseCase {
  constructor(
    @InjectDataSource(CREDENTIALS_DS) private readonly ds: DataSource,
    @Inject(CREDENTIALS_CONFIG) private readonly config: CredentialsConfig,
  ) {}

  /** `tokenHash`: the token's SHA-256 (tokenHash in @hub/contracts), as the gateway sends it. */
  @RpcHandler(CredentialsRpc.VerifyToken)
  async execute({ tokenHash }: VerifyTokenRpc): Promise<AuthInfo> {
    const r = await TokensStore.verify(this.ds.manager, tokenHash);
    if (!r) throw new InvalidCredentialsError();
    const lastUsed = r.last_used_at ? new Date(r.last_used_at) : null;
    if (!lastUsed || Date.now() - lastUsed.getTime() > LAST_USED_RESOLUTION_MS) {
      await TokensStore.touch(this.ds.manager, r.token_id);
    }
    return {
      user: {
        id: r.user_id,
        name: r.name,
        fullname: r.fullname,
        email: r.email,
        avatarUrl: avatarUrl(this.config.publicUrl, r.name),
        isPro: r.is_pro,
        createdAt: new Date(r.user_created_at).toISOString(),
      },
      token: {
        id: r.token_id,
        userId: r.user_id,
        role: r.role,
        displayName: r.display_name,
        last4: r.last4,
        createdAt: new Date(r.token_created_at).toISOString(),
        lastUsedAt: lastUsed ? lastUsed.toISOString() : null,
      },
      revokedOrganizationIds: (r.revoked_orgs ?? []).map((id) => id.trim()),
    };
  }
}

import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource } from 'typeorm';
import { type CreatedToken, type CreateTokenRpc, CredentialsRpc, tokenHash } from '@hub/credentials-contract';
import { newRandomId } from '@hub/persistence';
import { CREDENTIALS_DS } from '../credentials.di';
import { UsersStore } from '../users/users.store';
import { UserNotFoundError } from '../users/users.errors';
import { generateToken } from './tokens';
import { TokensStore } from './tokens.store';
import { toTokenView } from './token.view';
import { RpcHandler } from '@hub/messaging';

@Injectable()
export class CreateTokenUseCase {
  constructor(@InjectDataSource(CREDENTIALS_DS) private readonly ds: DataSource) {}

  @RpcHandler(CredentialsRpc.CreateToken)
  async execute(dto: CreateTokenRpc): Promise<CreatedToken> {
    const m = this.ds.manager;
    const user = await UsersStore.byName(m, dto.user);
    if (!user) throw new UserNotFoundError(dto.user);
    const raw = generateToken();
    const id = newRandomId();
    await TokensStore.insert(m, {
      id,
      userId: user.id,
      tokenHash: tokenHash(raw),
      last4: raw.slice(-4),
      role: dto.role,
      displayName: dto.displayName ?? `${dto.role} token`,
      lastUsedAt: null,
      revokedAt: null,
    });
    return { token: raw, tokenInfo: toTokenView(await TokensStore.byId(m, id)) };
  }
}

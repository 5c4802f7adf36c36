import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource } from 'typeorm';
import { type CreatedToken, type CreateTokenRpc } from '@hub/contracts';
import { newRandomId } from '@hub/persistence';
import { CREDENTIALS_DS } from '../credentials.tokens';
import { UserEntity } from '../users/user.entity';
import { UserNotFoundError } from '../users/users.errors';
import { AccessTokenEntity } from './access-token.entity';
import { generateToken, hashToken } from './tokens';
import { toTokenView } from './token.view';

@Injectable()
export class CreateTokenUseCase {
  constructor(@InjectDataSource(CREDENTIALS_DS) private readonly ds: DataSource) {}

  async execute(dto: CreateTokenRpc): Promise<CreatedToken> {
    const user = await this.ds.getRepository(UserEntity).findOneBy({ name: dto.user });
    if (!user) throw new UserNotFoundError(dto.user);
    const raw = generateToken();
    const repo = this.ds.getRepository(AccessTokenEntity);
    const id = newRandomId();
    await repo.insert({
      id,
      userId: user.id,
      tokenHash: hashToken(raw),
      last4: raw.slice(-4),
      role: dto.role,
      displayName: dto.displayName ?? `${dto.role} token`,
      lastUsedAt: null,
      revokedAt: null,
    });
    return { token: raw, tokenInfo: toTokenView(await repo.findOneByOrFail({ id })) };
  }
}

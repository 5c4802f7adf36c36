import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource, IsNull } from 'typeorm';
import { BadRequestError, type FindTokenRpc, NotFoundError, type TokenView } from '@hub/contracts';
import { CREDENTIALS_DS } from '../credentials.tokens';
import { AccessTokenEntity } from './access-token.entity';
import { hashToken } from './tokens';
import { toTokenView } from './token.view';

/** An active token, by raw value or by id. */
@Injectable()
export class FindTokenUseCase {
  constructor(@InjectDataSource(CREDENTIALS_DS) private readonly ds: DataSource) {}

  async execute(dto: FindTokenRpc): Promise<TokenView> {
    if (!dto.token === !dto.tokenId) throw new BadRequestError('give either token or tokenId');
    const where = dto.token ? { tokenHash: hashToken(dto.token) } : { id: dto.tokenId };
    const token = await this.ds.getRepository(AccessTokenEntity).findOneBy({ ...where, revokedAt: IsNull() });
    if (!token) throw new NotFoundError('No active access token matches', 'TOKEN_NOT_FOUND');
    return toTokenView(token);
  }
}

import { Injectable } from '@nestjs/common';
import {
  type AdminRevokeTokenRpc,
  type AdminTokenView,
  CredentialsRpc,
  type TokenRevokedEvent,
  CredentialsEvents,
} from '@hub/credentials-contract';
import { Outbox, RpcHandler } from '@hub/messaging';
import { UserNotFoundError } from '../users/users.errors';
import { UsersStore } from '../users/users.store';
import { toAdminTokenView } from './token.view';
import { UserTokenNotFoundError } from './tokens.errors';
import { TokensStore } from './tokens.store';

/**
 * The admin API's revocation of one token by its id (decision 0807): the operator sees ids, never
 * values, so spec 4.2's revocation by value cannot serve it. The token stops working everywhere
 * (the same `TokenRevoked` event as a leaked one, published before the answer); revoking a revoked
 * token changes nothing and answers it as it is. No mail: the operator acts on purpose.
 */
@Injectable()
export class RevokeTokenByIdUseCase {
  constructor(private readonly outbox: Outbox) {}

  @RpcHandler(CredentialsRpc.RevokeById)
  async execute(dto: AdminRevokeTokenRpc): Promise<AdminTokenView> {
    let published: { event: TokenRevokedEvent; id: string } | undefined;
    const token = await this.outbox.transaction(async (m) => {
      const user = await UsersStore.byName(m, dto.user);
      if (!user) throw new UserNotFoundError(dto.user);
      const found = await TokensStore.ofUser(m, user.id, dto.tokenId);
      if (!found) throw new UserTokenNotFoundError(dto.user, dto.tokenId);
      if (found.revokedAt) return found;
      const revoked = await TokensStore.revokeById(m, found.id);
      const event: TokenRevokedEvent = {
        tokenIds: [found.id],
        revokedAt: (revoked.revokedAt ?? new Date()).toISOString(),
      };
      published = { event, id: await this.outbox.add(m, CredentialsEvents.TokenRevoked, event) };
      return revoked;
    });
    // Every gateway hears of it before the answer: the token fails everywhere once it is back.
    if (published) await this.outbox.publishNow(CredentialsEvents.TokenRevoked, published.event, published.id);
    return toAdminTokenView(token);
  }
}

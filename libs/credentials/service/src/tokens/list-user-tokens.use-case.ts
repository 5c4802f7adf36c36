import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource } from 'typeorm';
import { type AdminListTokensRpc, adminPage, type AdminPage, adminPageSize } from '@hub/contracts';
import { type AdminTokenView, CredentialsRpc } from '@hub/credentials-contract';
import { CREDENTIALS_DS } from '../credentials.di';
import { UserNotFoundError } from '../users/users.errors';
import { UsersStore } from '../users/users.store';
import { toAdminTokenView } from './token.view';
import { TokensStore } from './tokens.store';
import { RpcHandler } from '@hub/messaging';

/** The admin API's list of a user's tokens: names, roles and dates, never a value or a hash. */
@Injectable()
export class ListUserTokensUseCase {
  constructor(@InjectDataSource(CREDENTIALS_DS) private readonly ds: DataSource) {}

  @RpcHandler(CredentialsRpc.ListTokens)
  async execute(q: AdminListTokensRpc): Promise<AdminPage<AdminTokenView>> {
    const user = await UsersStore.byName(this.ds.manager, q.user);
    if (!user) throw new UserNotFoundError(q.user);
    const limit = adminPageSize(q);
    const rows = await TokensStore.listForUser(this.ds.manager, user.id, {
      after: q.cursor,
      search: q.search,
      limit: limit + 1,
    });
    return adminPage(rows.map(toAdminTokenView), limit, (t) => t.id);
  }
}

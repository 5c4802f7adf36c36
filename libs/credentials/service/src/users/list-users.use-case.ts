import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource } from 'typeorm';
import { adminPage, type AdminNamesQueryDto, type AdminPage, adminPageSize } from '@hub/contracts';
import { type AdminUserView, CredentialsRpc } from '@hub/credentials-contract';
import { type CredentialsConfig } from '../credentials.config';
import { CREDENTIALS_CONFIG, CREDENTIALS_DS } from '../credentials.di';
import { toUserView, UsersStore } from './users.store';
import { RpcHandler } from '@hub/messaging';

/** The admin API's user list: a page by name, filtered by `search`, with who manages each account. */
@Injectable()
export class ListUsersUseCase {
  constructor(
    @InjectDataSource(CREDENTIALS_DS) private readonly ds: DataSource,
    @Inject(CREDENTIALS_CONFIG) private readonly config: CredentialsConfig,
  ) {}

  @RpcHandler(CredentialsRpc.ListUsers)
  async execute(q: AdminNamesQueryDto): Promise<AdminPage<AdminUserView>> {
    const limit = adminPageSize(q);
    const rows = await UsersStore.list(this.ds.manager, { after: q.cursor, search: q.search, limit: limit + 1 });
    const views = rows.map((u) => ({
      ...toUserView(u, this.config.publicUrl),
      managedByOrganizationId: u.managedByOrgId,
    }));
    return adminPage(views, limit, (u) => u.name);
  }
}

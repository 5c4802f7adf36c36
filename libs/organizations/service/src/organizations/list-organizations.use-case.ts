import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource } from 'typeorm';
import { type AdminNamesQueryDto, adminPage, type AdminPage, adminPageSize } from '@hub/contracts';
import { type AdminOrganizationView, OrganizationsRpc } from '@hub/organizations-contract';
import { type OrganizationsConfig } from '../organizations.config';
import { ORGANIZATIONS_CONFIG, ORGANIZATIONS_DS } from '../organizations.di';
import { toOrganizationView } from './organization.view';
import { OrganizationsStore } from './organizations.store';
import { RpcHandler } from '@hub/messaging';

/** The admin API's organization list: a page by name, filtered by `search`, with member counts. */
@Injectable()
export class ListOrganizationsUseCase {
  constructor(
    @InjectDataSource(ORGANIZATIONS_DS) private readonly ds: DataSource,
    @Inject(ORGANIZATIONS_CONFIG) private readonly config: OrganizationsConfig,
  ) {}

  @RpcHandler(OrganizationsRpc.List)
  async execute(q: AdminNamesQueryDto): Promise<AdminPage<AdminOrganizationView>> {
    const limit = adminPageSize(q);
    const rows = await OrganizationsStore.list(this.ds.manager, {
      after: q.cursor,
      search: q.search,
      limit: limit + 1,
    });
    const views = rows.map((r) => ({
      ...toOrganizationView(
        { id: r.id, name: r.name, fullname: r.fullname, plan: r.plan, createdAt: new Date(r.created_at) },
        this.config.publicUrl,
      ),
      memberCount: r.member_count,
    }));
    return adminPage(views, limit, (o) => o.name);
  }
}

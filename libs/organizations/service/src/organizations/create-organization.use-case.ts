import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource } from 'typeorm';
import { type RequestContext } from '@hub/contracts';
import { type CreateOrganizationRpc, OrganizationsRpc, type OrganizationView } from '@hub/organizations-contract';
import { CredentialsRpc } from '@hub/credentials-contract';
import { Outbox, RpcClient, RpcHandler } from '@hub/messaging';
import { newObjectId, isUniqueViolation } from '@hub/persistence';
import { recordAudit } from '../audit/record-audit';
import { recordMembershipChanged } from '../members/membership-events';
import { MembersStore } from '../members/members.store';
import { type OrganizationEntity } from './organization.entity';
import { OrganizationsStore } from './organizations.store';
import { OrganizationExistsError } from './organizations.errors';
import { type OrganizationsConfig } from '../organizations.config';
import { ORGANIZATIONS_CONFIG, ORGANIZATIONS_DS } from '../organizations.di';
import { toOrganizationView } from './organization.view';

@Injectable()
export class CreateOrganizationUseCase {
  constructor(
    @InjectDataSource(ORGANIZATIONS_DS) private readonly ds: DataSource,
    @Inject(ORGANIZATIONS_CONFIG) private readonly config: OrganizationsConfig,
    private readonly outbox: Outbox,
    private readonly rpc: RpcClient,
  ) {}

  /** The organization, its first admins and the events saying so commit together (decision 0007). */
  @RpcHandler(OrganizationsRpc.Create)
  async execute(dto: CreateOrganizationRpc, ctx: RequestContext): Promise<OrganizationView> {
    const id = newObjectId();
    const admins = [...new Map(dto.admins.map((a) => [a.id, a])).values()];
    let org: OrganizationEntity;
    // Users and organizations share one case-insensitive name space, kept by credentials (decision 0009): 409 if taken.
    await this.rpc.call(CredentialsRpc.ReserveName, { name: dto.name, kind: 'organization', ownerId: id }, ctx);
    try {
      org = await this.outbox.transaction(async (m) => {
        await OrganizationsStore.insert(m, { id, name: dto.name, fullname: dto.fullname ?? dto.name, plan: dto.plan });
        await MembersStore.insert(
          m,
          admins.map((a) => ({ organizationId: id, userId: a.id, userName: a.name, role: 'admin' })),
        );
        const created = await OrganizationsStore.byId(m, id);
        await recordAudit(this.outbox, m, ctx, created, 'org.create', `Organization ${created.name} created`, {
          plan: created.plan,
        });
        await recordMembershipChanged(
          this.outbox,
          m,
          created.id,
          admins.map((a) => a.id),
        );
        for (const a of admins) {
          await recordAudit(this.outbox, m, ctx, created, 'org.add_user', `${a.name} added as admin`, {
            user: a.name,
            role: 'admin',
          });
        }
        return created;
      });
    } catch (e) {
      await this.rpc.call(CredentialsRpc.ReleaseName, { ownerId: id }, ctx);
      if (isUniqueViolation(e)) {
        throw new OrganizationExistsError(dto.name);
      }
      throw e;
    }
    return toOrganizationView(org, this.config.publicUrl);
  }
}

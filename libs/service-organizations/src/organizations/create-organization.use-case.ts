import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource, QueryFailedError } from 'typeorm';
import { ConflictError, type CreateOrganizationRpc, CredentialsRpc, type OrganizationView, type RequestContext } from '@hub/contracts';
import { EventBus, RpcClient } from '@hub/messaging';
import { newObjectId } from '@hub/persistence';
import { publishAudit } from '../audit/publish-audit';
import { publishMembershipChanged } from '../members/membership-events';
import { MemberEntity } from '../members/member.entity';
import { OrganizationEntity } from './organization.entity';
import { type OrganizationsConfig } from '../organizations.config';
import { ORGANIZATIONS_CONFIG, ORGANIZATIONS_DS } from '../organizations.tokens';
import { toOrganizationView } from './organization.view';

@Injectable()
export class CreateOrganizationUseCase {
  constructor(
    @InjectDataSource(ORGANIZATIONS_DS) private readonly ds: DataSource,
    @Inject(ORGANIZATIONS_CONFIG) private readonly config: OrganizationsConfig,
    private readonly events: EventBus,
    private readonly rpc: RpcClient,
  ) {}

  async execute(dto: CreateOrganizationRpc, ctx: RequestContext): Promise<OrganizationView> {
    const id = newObjectId();
    // Users and organizations share one case-insensitive name space, kept by credentials (decision 0007): 409 if taken.
    await this.rpc.call(CredentialsRpc.ReserveName, { name: dto.name, kind: 'organization', ownerId: id }, ctx);
    try {
      await this.ds.transaction(async (m) => {
        await m.insert(OrganizationEntity, { id, name: dto.name, fullname: dto.fullname ?? dto.name, plan: dto.plan });
        const admins = [...new Map(dto.admins.map((a) => [a.id, a])).values()];
        await m.insert(MemberEntity, admins.map((a) => ({ organizationId: id, userId: a.id, userName: a.name, role: 'admin' })));
      });
    } catch (e) {
      await this.rpc.call(CredentialsRpc.ReleaseName, { ownerId: id }, ctx);
      if (e instanceof QueryFailedError && (e.driverError as { code?: string }).code === '23505') {
        throw new ConflictError(`An organization named ${dto.name} already exists`, 'ORGANIZATION_EXISTS');
      }
      throw e;
    }
    const org = await this.ds.getRepository(OrganizationEntity).findOneByOrFail({ id });
    await publishAudit(this.events, ctx, org, 'org.create', `Organization ${org.name} created`, { plan: org.plan });
    await publishMembershipChanged(this.events, org.id, dto.admins.map((a) => a.id));
    for (const a of dto.admins) {
      await publishAudit(this.events, ctx, org, 'org.add_user', `${a.name} added as admin`, { user: a.name, role: 'admin' });
    }
    return toOrganizationView(org, this.config.publicUrl);
  }
}

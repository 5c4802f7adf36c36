import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource, type EntityManager } from 'typeorm';
import {
  type AddResourceGroupReposRpc,
  type AddResourceGroupUsersRpc,
  type CreateResourceGroupRpc,
  type RequestContext,
  type RemoveResourceGroupUserRpc,
  type ResourceGroupRefRpc,
  type ResourceGroupView,
  type UpdateResourceGroupRpc,
} from '@hub/contracts';
import { Outbox } from '@hub/messaging';
import { newObjectId } from '@hub/persistence';
import { recordAudit } from '../audit/record-audit';
import { OrganizationEntity } from '../organizations/organization.entity';
import { OrganizationNotFoundError } from '../organizations/organizations.errors';
import { type OrganizationsConfig } from '../organizations.config';
import { ORGANIZATIONS_CONFIG, ORGANIZATIONS_DS } from '../organizations.tokens';
import { recordMembershipChanged } from '../members/membership-events';
import {
  ResourceGroupNotFoundError,
  ResourceGroupUserNotFoundError,
  ScimManagedGroupError,
} from './resource-groups.errors';
import { readResourceGroup } from './resource-group.view';

/** Resource groups: each change and its audit event commit together (decision 0007). */
@Injectable()
export class ResourceGroupUseCases {
  constructor(
    @InjectDataSource(ORGANIZATIONS_DS) private readonly ds: DataSource,
    @Inject(ORGANIZATIONS_CONFIG) private readonly config: OrganizationsConfig,
    private readonly outbox: Outbox,
  ) {}

  private async organization(m: EntityManager, name: string): Promise<OrganizationEntity> {
    const org = await m
      .createQueryBuilder(OrganizationEntity, 'o')
      .where('lower(o.name) = lower(:name)', { name })
      .getOne();
    if (!org) throw new OrganizationNotFoundError(name);
    return org;
  }

  /** The organization and the group, which must belong to it (another organization's group is "not found"). */
  private async scope(m: EntityManager, ref: ResourceGroupRefRpc, users?: 'users'): Promise<OrganizationEntity> {
    const org = await this.organization(m, ref.organization);
    const [found] = (await m.query(
      `SELECT scim_linked FROM organizations.resource_groups WHERE id = $1 AND organization_id = $2 FOR UPDATE`,
      [ref.groupId, org.id],
    )) as { scim_linked: boolean }[];
    if (!found) throw new ResourceGroupNotFoundError(org.name, ref.groupId);
    // A group linked to a SCIM group has its users from the identity provider only (decision 0420).
    if (users && found.scim_linked) throw new ScimManagedGroupError(ref.groupId);
    return org;
  }

  private async view(m: EntityManager, id: string): Promise<ResourceGroupView> {
    return (await readResourceGroup(m, id, this.config.publicUrl)) as ResourceGroupView;
  }

  create(dto: CreateResourceGroupRpc, ctx: RequestContext): Promise<ResourceGroupView> {
    return this.outbox.transaction(async (m) => {
      const org = await this.organization(m, dto.organization);
      const id = newObjectId();
      const autoJoin = dto.autoJoin?.enabled
        ? { enabled: true, role: dto.autoJoin.role, ...(dto.autoJoin.scope ? { scope: dto.autoJoin.scope } : {}) }
        : { enabled: false };
      await m.query(
        `INSERT INTO organizations.resource_groups (id, organization_id, name, description, auto_join) VALUES ($1, $2, $3, $4, $5)`,
        [id, org.id, dto.name, dto.description ?? null, JSON.stringify(autoJoin)],
      );
      await recordAudit(this.outbox, m, ctx, org, 'resource_group.create', `Resource group ${dto.name} created`, {
        resourceGroupId: id,
        name: dto.name,
      });
      return this.view(m, id);
    });
  }

  addUsers(dto: AddResourceGroupUsersRpc, ctx: RequestContext): Promise<ResourceGroupView> {
    return this.outbox.transaction(async (m) => {
      const org = await this.scope(m, dto, 'users');
      for (const u of dto.users) {
        await m.query(
          `INSERT INTO organizations.resource_group_users (group_id, user_id, user_name, fullname, role, added_by) VALUES ($1, $2, $3, $4, $5, $6)
           ON CONFLICT (group_id, user_id) DO UPDATE SET role = EXCLUDED.role`,
          [dto.groupId, u.id, u.name, u.fullname, u.role, ctx.userName ?? null],
        );
      }
      await recordMembershipChanged(
        this.outbox,
        m,
        org.id,
        dto.users.map((u) => u.id),
      );
      await recordAudit(
        this.outbox,
        m,
        ctx,
        org,
        'resource_group.add_users',
        `${dto.users.length} user(s) added to resource group ${dto.groupId}`,
        {
          resourceGroupId: dto.groupId,
          users: dto.users.map((u) => ({ user: u.name, role: u.role })),
        },
      );
      return this.view(m, dto.groupId);
    });
  }

  addRepos(dto: AddResourceGroupReposRpc, ctx: RequestContext): Promise<ResourceGroupView> {
    return this.outbox.transaction(async (m) => {
      const org = await this.scope(m, dto);
      for (const r of dto.repos) {
        await m.query(
          `INSERT INTO organizations.resource_group_repos (group_id, type, name, added_by) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING`,
          [dto.groupId, r.type, r.name, ctx.userName ?? null],
        );
      }
      await recordAudit(
        this.outbox,
        m,
        ctx,
        org,
        'repo.update_resource_group',
        `${dto.repos.length} repositories added to resource group ${dto.groupId}`,
        {
          resourceGroupId: dto.groupId,
          repos: dto.repos,
        },
      );
      return this.view(m, dto.groupId);
    });
  }

  update(dto: UpdateResourceGroupRpc, ctx: RequestContext): Promise<ResourceGroupView> {
    return this.outbox.transaction(async (m) => {
      const org = await this.scope(m, dto);
      const { name, description } = dto.changes;
      await m.query(
        `UPDATE organizations.resource_groups SET name = COALESCE($2, name), description = CASE WHEN $3::boolean THEN $4 ELSE description END WHERE id = $1`,
        [dto.groupId, name ?? null, description !== undefined, description ?? null],
      );
      await recordAudit(
        this.outbox,
        m,
        ctx,
        org,
        'resource_group.settings',
        `Resource group ${dto.groupId} settings changed`,
        {
          resourceGroupId: dto.groupId,
          ...dto.changes,
        },
      );
      return this.view(m, dto.groupId);
    });
  }

  /** Another organization's group is "not found", like a missing one. */
  async get(dto: ResourceGroupRefRpc): Promise<ResourceGroupView> {
    const m = this.ds.manager;
    const org = await this.organization(m, dto.organization);
    const [found] = (await m.query(
      `SELECT 1 FROM organizations.resource_groups WHERE id = $1 AND organization_id = $2`,
      [dto.groupId, org.id],
    )) as unknown[];
    if (!found) throw new ResourceGroupNotFoundError(org.name, dto.groupId);
    return this.view(m, dto.groupId);
  }

  removeUser(dto: RemoveResourceGroupUserRpc, ctx: RequestContext): Promise<ResourceGroupView> {
    return this.outbox.transaction(async (m) => {
      const org = await this.scope(m, dto, 'users');
      const [user] = (await m.query(
        `SELECT user_name, role FROM organizations.resource_group_users WHERE group_id = $1 AND user_id = $2`,
        [dto.groupId, dto.userId],
      )) as { user_name: string; role: string }[];
      if (!user) throw new ResourceGroupUserNotFoundError(dto.groupId, dto.userId);
      await m.query(`DELETE FROM organizations.resource_group_users WHERE group_id = $1 AND user_id = $2`, [
        dto.groupId,
        dto.userId,
      ]);
      await recordMembershipChanged(this.outbox, m, org.id, [dto.userId]);
      await recordAudit(
        this.outbox,
        m,
        ctx,
        org,
        'resource_group.remove_users',
        `${user.user_name} removed from resource group ${dto.groupId}`,
        {
          resourceGroupId: dto.groupId,
          users: [{ user: user.user_name, role: user.role }],
        },
      );
      return this.view(m, dto.groupId);
    });
  }
}

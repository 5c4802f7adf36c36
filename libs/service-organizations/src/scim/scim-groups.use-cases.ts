import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource, type EntityManager } from 'typeorm';
import {
  type RequestContext,
  type ScimDeleted,
  type ScimGroupRecord,
  type ScimListRpc,
  type ScimPage,
  type ScimPatchRpc,
  type ScimResourceRpc,
  ScimUniquenessError,
  type ScimWriteRpc,
} from '@hub/contracts';
import { Outbox } from '@hub/messaging';
import { newObjectId } from '@hub/persistence';
import { recordAudit } from '../audit/record-audit';
import { ORGANIZATIONS_DS } from '../organizations.tokens';
import { checkIfMatch } from './scim-etag';
import { applyScimGroupPatch, readScimGroup, type ScimGroupState } from './scim-group.state';
import { setGroupMembers } from './scim-group-members';
import { ScimGroupNotLinkableError } from './scim-groups.errors';
import { ScimGroupsStore as Groups } from './scim-groups.store';
import { scimOrganization } from './scim-org';
import { parseScimPatch } from './scim-patch';

type Org = { id: string; name: string };

/**
 * SCIM Groups are resource groups (decision 0420): a new group links the organization's resource
 * group of that name (empty, auto-join off) or creates one; its users are then the group's
 * members, managed by the identity provider only.
 */
@Injectable()
export class ScimGroupsUseCases {
  constructor(
    @InjectDataSource(ORGANIZATIONS_DS) private readonly ds: DataSource,
    private readonly outbox: Outbox,
  ) {}

  async list(dto: ScimListRpc): Promise<ScimPage<ScimGroupRecord>> {
    const org = await scimOrganization(this.ds.manager, dto.organization);
    const { total, items } = await Groups.list(this.ds.manager, org.id, dto);
    return { totalResults: total, startIndex: dto.startIndex, items };
  }

  async get(dto: ScimResourceRpc): Promise<ScimGroupRecord> {
    return Groups.get(this.ds.manager, (await scimOrganization(this.ds.manager, dto.organization)).id, dto.id);
  }

  create(dto: ScimWriteRpc, ctx: RequestContext): Promise<ScimGroupRecord> {
    const input = readScimGroup(dto.resource);
    return this.outbox.transaction(async (m) => {
      const org = await scimOrganization(m, dto.organization, true);
      const id = await this.link(m, org, input, ctx);
      await setGroupMembers(this.outbox, m, org, id, input.members, ctx);
      return Groups.get(m, org.id, id);
    });
  }

  replace(dto: ScimWriteRpc, ctx: RequestContext): Promise<ScimGroupRecord> {
    const input = readScimGroup(dto.resource);
    return this.change(dto.organization, dto.id ?? '', dto.ifMatch, ctx, () => input);
  }

  patch(dto: ScimPatchRpc, ctx: RequestContext): Promise<ScimGroupRecord> {
    const ops = parseScimPatch(dto.patch);
    return this.change(dto.organization, dto.id, dto.ifMatch, ctx, (current) => applyScimGroupPatch(current, ops));
  }

  /** Unlinks the resource group (kept with its repositories) and takes the provisioned users out of it. */
  delete(dto: ScimResourceRpc, ctx: RequestContext): Promise<ScimDeleted> {
    return this.outbox.transaction(async (m) => {
      const org = await scimOrganization(m, dto.organization, true);
      const group = await Groups.get(m, org.id, dto.id, true);
      checkIfMatch(dto.ifMatch, group.version, 'Group');
      const userIds = await setGroupMembers(this.outbox, m, org, group.id, [], ctx);
      await m.query(
        `UPDATE organizations.resource_groups SET scim_linked = false, scim_external_id = NULL, updated_at = now() WHERE id = $1`,
        [group.id],
      );
      await recordAudit(
        this.outbox,
        m,
        ctx,
        org,
        'resource_group.settings',
        `Resource group ${group.displayName} no longer managed by SCIM`,
        {
          resourceGroupId: group.id,
          scim: 'unlinked',
        },
      );
      return { userIds };
    });
  }

  /** The id of the resource group the new SCIM group is: the one of that name, or a new one. */
  private async link(m: EntityManager, org: Org, input: ScimGroupState, ctx: RequestContext): Promise<string> {
    const [existing] = (await m.query(
      `SELECT id, scim_linked, auto_join, (SELECT count(*)::int FROM organizations.resource_group_users u WHERE u.group_id = g.id) AS users
         FROM organizations.resource_groups g WHERE organization_id = $1 AND lower(name) = lower($2) ORDER BY created_at LIMIT 1 FOR UPDATE`,
      [org.id, input.displayName],
    )) as { id: string; scim_linked: boolean; auto_join: string; users: number }[];
    if (existing?.scim_linked)
      throw new ScimUniquenessError(`A group named ${input.displayName} is already provisioned in this organization`);
    if (existing && (existing.users > 0 || (JSON.parse(existing.auto_join) as { enabled: boolean }).enabled)) {
      throw new ScimGroupNotLinkableError(input.displayName);
    }
    const id = existing?.id ?? newObjectId();
    if (existing) {
      await m.query(
        `UPDATE organizations.resource_groups SET scim_linked = true, scim_external_id = $2, updated_at = now() WHERE id = $1`,
        [id, input.externalId],
      );
    } else {
      await m.query(
        `INSERT INTO organizations.resource_groups (id, organization_id, name, scim_linked, scim_external_id) VALUES ($1, $2, $3, true, $4)`,
        [id, org.id, input.displayName, input.externalId],
      );
      await recordAudit(
        this.outbox,
        m,
        ctx,
        org,
        'resource_group.create',
        `Resource group ${input.displayName} created by SCIM provisioning`,
        {
          resourceGroupId: id,
          name: input.displayName,
          scim: true,
        },
      );
    }
    await recordAudit(
      this.outbox,
      m,
      ctx,
      org,
      'resource_group.settings',
      `Resource group ${input.displayName} managed by SCIM`,
      { resourceGroupId: id, scim: 'linked' },
    );
    return id;
  }

  private change(
    organization: string,
    id: string,
    ifMatch: string | undefined,
    ctx: RequestContext,
    next: (s: ScimGroupState) => ScimGroupState,
  ): Promise<ScimGroupRecord> {
    return this.outbox.transaction(async (m) => {
      const org = await scimOrganization(m, organization, true);
      const current = await Groups.get(m, org.id, id, true);
      checkIfMatch(ifMatch, current.version, 'Group');
      const state = next({
        displayName: current.displayName,
        externalId: current.externalId,
        members: current.members.map((x) => x.value),
      });
      if (state.displayName !== current.displayName) {
        await recordAudit(
          this.outbox,
          m,
          ctx,
          org,
          'resource_group.settings',
          `Resource group ${current.displayName} renamed to ${state.displayName} by SCIM provisioning`,
          {
            resourceGroupId: id,
            name: state.displayName,
            scim: true,
          },
        );
      }
      await m.query(
        `UPDATE organizations.resource_groups SET name = $2, scim_external_id = $3, scim_version = scim_version + 1, updated_at = now() WHERE id = $1`,
        [id, state.displayName, state.externalId],
      );
      await setGroupMembers(this.outbox, m, org, id, state.members, ctx);
      return Groups.get(m, org.id, id);
    });
  }
}

import { Injectable } from '@nestjs/common';
import { type EntityManager } from 'typeorm';
import { type RequestContext } from '@hub/contracts';
import { type ScimGroupRecord, ScimUniquenessError, type ScimWriteRpc, ScimRpc } from '@hub/organizations-contract';
import { Outbox, RpcHandler } from '@hub/messaging';
import { newObjectId } from '@hub/persistence';
import { recordAudit } from '../audit/record-audit';
import { readScimGroup, type ScimGroupState } from './scim-group.state';
import { setGroupMembers } from './scim-group-members';
import { ScimGroupNotLinkableError } from './scim-groups.errors';
import { ScimGroupsStore } from './scim-groups.store';
import { scimOrganization } from './scim-org';

type Org = { id: string; name: string };

/**
 * SCIM Groups are resource groups (decision 0420): a new group links the organization's resource
 * group of that name (empty, auto-join off) or creates one; its users are then the group's
 * members, managed by the identity provider only.
 */
@Injectable()
export class CreateScimGroupUseCase {
  constructor(private readonly outbox: Outbox) {}

  @RpcHandler(ScimRpc.CreateGroup)
  execute(dto: ScimWriteRpc, ctx: RequestContext): Promise<ScimGroupRecord> {
    const input = readScimGroup(dto.resource);
    return this.outbox.transaction(async (m) => {
      const org = await scimOrganization(m, dto.organization, true);
      const id = await this.link(m, org, input, ctx);
      await setGroupMembers(this.outbox, m, org, id, input.members, ctx);
      return ScimGroupsStore.get(m, org.id, id);
    });
  }

  /** The id of the resource group the new SCIM group is: the one of that name, or a new one. */
  private async link(m: EntityManager, org: Org, input: ScimGroupState, ctx: RequestContext): Promise<string> {
    const existing = await ScimGroupsStore.linkCandidate(m, org.id, input.displayName);
    if (existing?.scim_linked)
      throw new ScimUniquenessError(`A group named ${input.displayName} is already provisioned in this organization`);
    if (existing && (existing.users > 0 || (JSON.parse(existing.auto_join) as { enabled: boolean }).enabled)) {
      throw new ScimGroupNotLinkableError(input.displayName);
    }
    const id = existing?.id ?? newObjectId();
    if (existing) {
      await ScimGroupsStore.link(m, id, input.externalId);
    } else {
      await ScimGroupsStore.insertLinked(m, {
        id,
        organizationId: org.id,
        name: input.displayName,
        externalId: input.externalId,
      });
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
}

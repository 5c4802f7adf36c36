import { Injectable } from '@nestjs/common';
import { type RequestContext } from '@hub/contracts';
import { type ScimDeleted, type ScimResourceRpc, ScimRpc } from '@hub/organizations-contract';
import { Outbox, RpcHandler } from '@hub/messaging';
import { recordAudit } from '../audit/record-audit';
import { checkIfMatch } from './scim-etag';
import { setGroupMembers } from './scim-group-members';
import { ScimGroupsStore } from './scim-groups.store';
import { scimOrganization } from './scim-org';

/** Unlinks the resource group (kept with its repositories) and takes the provisioned users out of it. */
@Injectable()
export class DeleteScimGroupUseCase {
  constructor(private readonly outbox: Outbox) {}

  @RpcHandler(ScimRpc.DeleteGroup)
  execute(dto: ScimResourceRpc, ctx: RequestContext): Promise<ScimDeleted> {
    return this.outbox.transaction(async (m) => {
      const org = await scimOrganization(m, dto.organization, true);
      const group = await ScimGroupsStore.get(m, org.id, dto.id, true);
      checkIfMatch(dto.ifMatch, group.version, 'Group');
      const userIds = await setGroupMembers(this.outbox, m, org, group.id, [], ctx);
      await ScimGroupsStore.unlink(m, group.id);
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
}

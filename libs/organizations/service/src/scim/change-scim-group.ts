import { type RequestContext } from '@hub/contracts';
import { type ScimGroupRecord } from '@hub/organizations-contract';
import { type Outbox } from '@hub/messaging';
import { recordAudit } from '../audit/record-audit';
import { checkIfMatch } from './scim-etag';
import { type ScimGroupState } from './scim-group.state';
import { setGroupMembers } from './scim-group-members';
import { ScimGroupsStore } from './scim-groups.store';
import { scimOrganization } from './scim-org';

/** A PUT or PATCH on the locked group: If-Match is checked before anything is written; a rename is audited. */
export function changeScimGroup(
  outbox: Outbox,
  target: { organization: string; id: string; ifMatch: string | undefined },
  ctx: RequestContext,
  next: (s: ScimGroupState) => ScimGroupState,
): Promise<ScimGroupRecord> {
  const { id } = target;
  return outbox.transaction(async (m) => {
    const org = await scimOrganization(m, target.organization, true);
    const current = await ScimGroupsStore.get(m, org.id, id, true);
    checkIfMatch(target.ifMatch, current.version, 'Group');
    const state = next({
      displayName: current.displayName,
      externalId: current.externalId,
      members: current.members.map((x) => x.value),
    });
    if (state.displayName !== current.displayName) {
      await recordAudit(
        outbox,
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
    await ScimGroupsStore.update(m, id, state.displayName, state.externalId);
    await setGroupMembers(outbox, m, org, id, state.members, ctx);
    return ScimGroupsStore.get(m, org.id, id);
  });
}

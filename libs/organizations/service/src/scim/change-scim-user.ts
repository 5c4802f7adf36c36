import { type RequestContext } from '@hub/contracts';
import { type ScimUserRecord } from '@hub/organizations-contract';
import { type Outbox } from '@hub/messaging';
import { isUniqueViolation } from '@hub/persistence';
import { checkIfMatch } from './scim-etag';
import { provisionMembership } from './scim-membership';
import { scimOrganization } from './scim-org';
import { type ScimUserState } from './scim-user.state';
import { ScimUserNameRaceError, ScimUserNameTakenError } from './scim-users.errors';
import { ScimUsersStore, stateOf } from './scim-users.store';

/**
 * A PUT or PATCH on the locked row: If-Match is checked before anything is written. userName
 * may change (decision 0421: the identity provider renames); the hub name stays.
 */
export async function changeScimUser(
  outbox: Outbox,
  target: { organization: string; id: string; ifMatch: string | undefined },
  ctx: RequestContext,
  next: (current: ScimUserState) => ScimUserState,
): Promise<ScimUserRecord> {
  try {
    return await outbox.transaction(async (m) => {
      const org = await scimOrganization(m, target.organization, true);
      const current = await ScimUsersStore.get(m, org.id, target.id, true);
      checkIfMatch(target.ifMatch, current.version, 'User');
      const state = next(stateOf(current));
      const holder = await ScimUsersStore.byName(m, org.id, state.userName);
      if (holder && holder !== current.id) throw new ScimUserNameTakenError(state.userName);
      await ScimUsersStore.update(m, current.id, state);
      await provisionMembership(outbox, m, org, { id: current.userId, name: current.hubName }, state.active, ctx);
      return ScimUsersStore.get(m, org.id, target.id);
    });
  } catch (e) {
    if (isUniqueViolation(e)) throw new ScimUserNameRaceError();
    throw e;
  }
}

import { Injectable } from '@nestjs/common';
import { type RequestContext } from '@hub/contracts';
import { type ScimLinkRpc, type ScimUserRecord, ScimRpc } from '@hub/organizations-contract';
import { Outbox, RpcHandler } from '@hub/messaging';
import { isUniqueViolation, newObjectId } from '@hub/persistence';
import { provisionMembership } from './scim-membership';
import { scimOrganization } from './scim-org';
import { readScimUser } from './scim-user.state';
import { ScimUserAlreadyLinkedError, ScimUserNameTakenError } from './scim-users.errors';
import { ScimUsersStore } from './scim-users.store';

/**
 * The operator's link of an existing hub user (decision 0421: never SCIM's own doing): the user
 * becomes provisioned under the identity provider's userName and a member (read) if not yet.
 */
@Injectable()
export class LinkScimUserUseCase {
  constructor(private readonly outbox: Outbox) {}

  @RpcHandler(ScimRpc.LinkUser)
  async execute(dto: ScimLinkRpc, ctx: RequestContext): Promise<ScimUserRecord> {
    const input = readScimUser({ userName: dto.userName, externalId: dto.externalId });
    try {
      return await this.outbox.transaction(async (m) => {
        const org = await scimOrganization(m, dto.organization, true);
        if (await ScimUsersStore.byName(m, org.id, input.userName)) throw new ScimUserNameTakenError(input.userName);
        const id = newObjectId();
        await ScimUsersStore.insert(m, { id, organizationId: org.id, userId: dto.userId, hubName: dto.hubName }, input);
        await provisionMembership(this.outbox, m, org, { id: dto.userId, name: dto.hubName }, true, ctx);
        return ScimUsersStore.get(m, org.id, id);
      });
    } catch (e) {
      if (isUniqueViolation(e)) throw new ScimUserAlreadyLinkedError(dto.hubName);
      throw e;
    }
  }
}

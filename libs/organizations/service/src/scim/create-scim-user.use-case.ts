import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource } from 'typeorm';
import { type RequestContext } from '@hub/contracts';
import { type ScimUserRecord, type ScimWriteRpc, ScimRpc } from '@hub/organizations-contract';
import { CredentialsRpc } from '@hub/credentials-contract';
import { Outbox, RpcClient, RpcHandler } from '@hub/messaging';
import { isUniqueViolation, newObjectId } from '@hub/persistence';
import { ORGANIZATIONS_DS } from '../organizations.di';
import { provisionMembership } from './scim-membership';
import { scimOrganization } from './scim-org';
import { readScimUser } from './scim-user.state';
import { ScimUserNameTakenError } from './scim-users.errors';
import { ScimUsersStore } from './scim-users.store';

/**
 * Creates a new hub account managed by this organization (credentials derives its name from
 * userName, decision 0421), then provisions it here. An existing hub user is never adopted, but
 * the organization's own account of a userName it deprovisioned comes back for that userName.
 */
@Injectable()
export class CreateScimUserUseCase {
  constructor(
    @InjectDataSource(ORGANIZATIONS_DS) private readonly ds: DataSource,
    private readonly outbox: Outbox,
    private readonly rpc: RpcClient,
  ) {}

  @RpcHandler(ScimRpc.CreateUser)
  async execute(dto: ScimWriteRpc, ctx: RequestContext): Promise<ScimUserRecord> {
    const input = readScimUser(dto.resource);
    const org = await scimOrganization(this.ds.manager, dto.organization);
    if (await ScimUsersStore.byName(this.ds.manager, org.id, input.userName)) {
      throw new ScimUserNameTakenError(input.userName);
    }
    const fullname = [input.givenName, input.familyName].filter(Boolean).join(' ').slice(0, 200) || undefined;
    const { user } = await this.rpc.call(
      CredentialsRpc.ProvisionUser,
      {
        organizationId: org.id,
        organization: org.name,
        userName: input.userName,
        email: input.emails[0],
        fullname,
        formerUserId: await ScimUsersStore.formerAccount(this.ds.manager, org.id, input.userName),
      },
      ctx,
    );
    try {
      return await this.outbox.transaction(async (m) => {
        const locked = await scimOrganization(m, dto.organization, true);
        const id = newObjectId();
        await ScimUsersStore.insert(m, { id, organizationId: locked.id, userId: user.id, hubName: user.name }, input);
        await ScimUsersStore.forgetDeprovisioned(m, locked.id, input.userName);
        await provisionMembership(this.outbox, m, locked, user, input.active, ctx);
        return ScimUsersStore.get(m, locked.id, id);
      });
    } catch (e) {
      if (isUniqueViolation(e)) throw new ScimUserNameTakenError(input.userName);
      throw e;
    }
  }
}

import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource, type EntityManager } from 'typeorm';
import {
  CredentialsRpc,
  type RequestContext,
  type ScimDeleted,
  type ScimListRpc,
  type ScimPage,
  type ScimPatchRpc,
  type ScimLinkRpc,
  type ScimResourceRpc,
  ScimUniquenessError,
  type ScimUserRecord,
  type ScimWriteRpc,
} from '@hub/contracts';
import { Outbox, RpcClient } from '@hub/messaging';
import { newObjectId } from '@hub/persistence';
import { recordAudit } from '../audit/record-audit';
import { keepAnAdmin } from '../members/keep-an-admin';
import { leaveOrganization } from '../members/leave-organization';
import { recordMembershipChanged } from '../members/membership-events';
import { ORGANIZATIONS_DS } from '../organizations.tokens';
import { checkIfMatch } from './scim-etag';
import { provisionMembership } from './scim-membership';
import { isUniqueViolation, scimOrganization } from './scim-org';
import { parseScimPatch } from './scim-patch';
import { applyScimUserPatch, readScimUser, type ScimUserState } from './scim-user.state';
import { ScimUsersStore as Users, stateOf } from './scim-users.store';

function taken(userName: string): ScimUniquenessError {
  return new ScimUniquenessError(
    `A user with userName ${userName} is already provisioned in this organization (userName is case-insensitive)`,
  );
}

/** SCIM Users of an organization (RFC 7644 3.3-3.6, decision 0420): each change commits with its membership and audit events. */
@Injectable()
export class ScimUsersUseCases {
  constructor(
    @InjectDataSource(ORGANIZATIONS_DS) private readonly ds: DataSource,
    private readonly outbox: Outbox,
    private readonly rpc: RpcClient,
  ) {}

  async list(dto: ScimListRpc): Promise<ScimPage<ScimUserRecord>> {
    const org = await scimOrganization(this.ds.manager, dto.organization);
    const { total, items } = await Users.list(this.ds.manager, org.id, dto);
    return { totalResults: total, startIndex: dto.startIndex, items };
  }

  async get(dto: ScimResourceRpc): Promise<ScimUserRecord> {
    const org = await scimOrganization(this.ds.manager, dto.organization);
    return Users.get(this.ds.manager, org.id, dto.id);
  }

  /**
   * Creates a new hub account managed by this organization (credentials derives its name from
   * userName, decision 0421), then provisions it here. An existing hub user is never adopted.
   */
  async create(dto: ScimWriteRpc, ctx: RequestContext): Promise<ScimUserRecord> {
    const input = readScimUser(dto.resource);
    const org = await scimOrganization(this.ds.manager, dto.organization);
    if (await Users.byName(this.ds.manager, org.id, input.userName)) throw taken(input.userName);
    const fullname = [input.givenName, input.familyName].filter(Boolean).join(' ').slice(0, 200) || undefined;
    const { user } = await this.rpc.call(
      CredentialsRpc.ProvisionUser,
      {
        organizationId: org.id,
        organization: org.name,
        userName: input.userName,
        email: input.emails[0],
        fullname,
      },
      ctx,
    );
    try {
      return await this.outbox.transaction(async (m) => {
        const locked = await scimOrganization(m, dto.organization, true);
        const id = newObjectId();
        await Users.insert(m, { id, organizationId: locked.id, userId: user.id, hubName: user.name }, input);
        await provisionMembership(this.outbox, m, locked, user, input.active, ctx);
        return Users.get(m, locked.id, id);
      });
    } catch (e) {
      if (isUniqueViolation(e)) throw taken(input.userName);
      throw e;
    }
  }

  /**
   * The operator's link of an existing hub user (decision 0421: never SCIM's own doing): the user
   * becomes provisioned under the identity provider's userName and a member (read) if not yet.
   */
  async link(dto: ScimLinkRpc, ctx: RequestContext): Promise<ScimUserRecord> {
    const input = readScimUser({ userName: dto.userName, externalId: dto.externalId });
    try {
      return await this.outbox.transaction(async (m) => {
        const org = await scimOrganization(m, dto.organization, true);
        if (await Users.byName(m, org.id, input.userName)) throw taken(input.userName);
        const id = newObjectId();
        await Users.insert(m, { id, organizationId: org.id, userId: dto.userId, hubName: dto.hubName }, input);
        await provisionMembership(this.outbox, m, org, { id: dto.userId, name: dto.hubName }, true, ctx);
        return Users.get(m, org.id, id);
      });
    } catch (e) {
      if (isUniqueViolation(e))
        throw new ScimUniquenessError(
          `${dto.hubName} is already provisioned in this organization, or the userName is taken`,
        );
      throw e;
    }
  }

  /** PUT: the whole resource again; attributes the hub does not keep are ignored. */
  replace(dto: ScimWriteRpc, ctx: RequestContext): Promise<ScimUserRecord> {
    return this.change(dto.organization, dto.id ?? '', dto.ifMatch, ctx, () => readScimUser(dto.resource));
  }

  patch(dto: ScimPatchRpc, ctx: RequestContext): Promise<ScimUserRecord> {
    const ops = parseScimPatch(dto.patch);
    return this.change(dto.organization, dto.id, dto.ifMatch, ctx, (current) => applyScimUserPatch(current, ops));
  }

  delete(dto: ScimResourceRpc, ctx: RequestContext): Promise<ScimDeleted> {
    return this.outbox.transaction(async (m) => {
      const org = await scimOrganization(m, dto.organization, true);
      const user = await Users.get(m, org.id, dto.id, true);
      checkIfMatch(dto.ifMatch, user.version, 'User');
      const [member] = (await m.query(
        `SELECT role FROM organizations.members WHERE organization_id = $1 AND user_id = $2`,
        [org.id, user.userId],
      )) as { role: string }[];
      if (member) await keepAnAdmin(m, org, { userId: user.userId, role: member.role });
      await leaveOrganization(m, org.id, user.userId);
      await recordMembershipChanged(this.outbox, m, org.id, [user.userId]);
      await recordAudit(this.outbox, m, ctx, org, 'org.remove_user', `${user.hubName} removed by SCIM provisioning`, {
        user: user.hubName,
        ...(member ? { role: member.role } : {}),
        scim: true,
      });
      return { userIds: [user.userId] };
    });
  }

  /**
   * A PUT or PATCH on the locked row: If-Match is checked before anything is written. userName
   * may change (decision 0421: the identity provider renames); the hub name stays.
   */
  private async change(
    organization: string,
    id: string,
    ifMatch: string | undefined,
    ctx: RequestContext,
    next: (current: ScimUserState) => ScimUserState,
  ): Promise<ScimUserRecord> {
    try {
      return await this.outbox.transaction(async (m) => {
        const org = await scimOrganization(m, organization, true);
        const current = await Users.get(m, org.id, id, true);
        checkIfMatch(ifMatch, current.version, 'User');
        const state = next(stateOf(current));
        const holder = await Users.byName(m, org.id, state.userName);
        if (holder && holder !== current.id) throw taken(state.userName);
        await this.save(m, org, current, state, ctx);
        return Users.get(m, org.id, id);
      });
    } catch (e) {
      if (isUniqueViolation(e))
        throw new ScimUniquenessError('Another user of this organization took that userName meanwhile');
      throw e;
    }
  }

  private async save(
    m: EntityManager,
    org: { id: string; name: string },
    current: ScimUserRecord,
    state: ScimUserState,
    ctx: RequestContext,
  ): Promise<void> {
    await Users.update(m, current.id, state);
    await provisionMembership(this.outbox, m, org, { id: current.userId, name: current.hubName }, state.active, ctx);
  }
}

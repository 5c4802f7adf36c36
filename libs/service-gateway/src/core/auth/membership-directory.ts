import { Injectable } from '@nestjs/common';
import { type RequestContext } from '@hub/contracts';
import { type OrganizationAccess, OrganizationsRpc, type UserMembership } from '@hub/organizations-contract';
import { RpcClient } from '@hub/messaging';
import { MembershipCache } from './membership-cache';

/**
 * A user's organizations and roles, from the gateway's cache when it has them. whoami and the
 * org access guard both read it, so most requests cost no RPC; a change of membership drops the
 * user's entry on every replica (hub.organizations.membership.changed).
 */
@Injectable()
export class MembershipDirectory {
  constructor(
    private readonly rpc: RpcClient,
    private readonly cache: MembershipCache,
  ) {}

  async membershipsOf(userId: string, ctx: RequestContext): Promise<UserMembership[]> {
    const cached = this.cache.get(userId);
    if (cached) return cached;
    const generation = this.cache.generation;
    const fresh = await this.rpc.call(OrganizationsRpc.ListForUser, { userId }, ctx);
    // Not kept if a membership change was announced meanwhile: the reply may predate it.
    this.cache.setUnlessEvicted(userId, fresh, generation);
    return fresh;
  }

  /** The user's standing in one organization; asks organizations only when not a member (404 or 403 then). */
  async accessTo(organization: string, userId: string, ctx: RequestContext): Promise<OrganizationAccess> {
    return (
      accessIn(await this.membershipsOf(userId, ctx), organization) ??
      this.rpc.call(OrganizationsRpc.GetAccess, { organization, userId }, ctx)
    );
  }

  /** accessTo without waiting: the answer when the cache holds the user's memberships and they include the organization. */
  cachedAccessTo(organization: string, userId: string): OrganizationAccess | undefined {
    const cached = this.cache.get(userId);
    return cached && accessIn(cached, organization);
  }
}

function accessIn(memberships: UserMembership[], organization: string): OrganizationAccess | undefined {
  const member = memberships.find((m) => m.organization.name === organization);
  return member && { organization: member.organization, role: member.role };
}

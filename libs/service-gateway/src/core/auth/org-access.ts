import { Injectable } from '@nestjs/common';
import { type FastifyRequest } from 'fastify';
import { PLAN_LABELS, planAtLeast, roleGrantsAccess } from '@hub/contracts';
import { type OrganizationAccess } from '@hub/organizations-contract';
import { type AuthInfo } from '@hub/credentials-contract';
import { contextOf } from '../http/request-context';
import { type OrgScopeRequirement } from './auth.decorators';
import {
  AdminRoleRequiredError,
  NoAccessRoleError,
  NotAMemberError,
  PlanRequiredError,
  TokenRevokedByOrgError,
  WriteTokenRequiredError,
} from './auth.errors';
import { MembershipDirectory } from './membership-directory';

declare module 'fastify' {
  interface FastifyRequest {
    hubOrgAccess?: OrganizationAccess;
  }
}

/**
 * For routes on `/api/organizations/:name/…`: the token must not be revoked by that
 * organization, the caller must be a member with the needed role, and the plan must allow it.
 * Synchronous when the caller's memberships are cached and include the organization.
 */
@Injectable()
export class OrgAccess {
  constructor(private readonly directory: MembershipDirectory) {}

  /** Sets req.hubOrgAccess or throws the 403/404 that says why not. */
  check(req: FastifyRequest, auth: AuthInfo, need: OrgScopeRequirement): void | Promise<void> {
    const name = (req.params as Record<string, string>)['name'] ?? '';
    const cached = this.directory.cachedAccessTo(name, auth.user.id);
    if (cached) return admit(req, auth, need, cached);
    return this.directory.accessTo(name, auth.user.id, contextOf(req)).then((access) => admit(req, auth, need, access));
  }
}

function admit(req: FastifyRequest, auth: AuthInfo, need: OrgScopeRequirement, access: OrganizationAccess): void {
  const org = access.organization;
  if (auth.revokedOrganizationIds.includes(org.id)) throw new TokenRevokedByOrgError(org.name);
  if (access.role === null) throw new NotAMemberError(org.name);
  // Answered like a non-member (403), naming the role: the member already sees the membership in whoami.
  if (!roleGrantsAccess(access.role)) throw new NoAccessRoleError(org.name);
  if (need.role === 'admin' && access.role !== 'admin') throw new AdminRoleRequiredError(org.name, access.role);
  if (need.writeToken && auth.token.role === 'read') throw new WriteTokenRequiredError(org.name);
  if (need.minPlan && !planAtLeast(org.plan, need.minPlan)) {
    throw new PlanRequiredError(org.name, PLAN_LABELS[need.minPlan], PLAN_LABELS[org.plan]);
  }
  req.hubOrgAccess = access;
}

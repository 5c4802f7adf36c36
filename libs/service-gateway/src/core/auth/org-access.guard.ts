import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { type FastifyRequest } from 'fastify';
import { type OrganizationAccess, PLAN_LABELS, planAtLeast } from '@hub/contracts';
import { contextOf } from '../http/request-context';
import { ORG_SCOPED, type OrgScopeRequirement } from './auth.decorators';
import { AdminRoleRequiredError, NotAMemberError, PlanRequiredError, TokenRevokedByOrgError, WriteTokenRequiredError } from './auth.errors';
import { MembershipDirectory } from './membership-directory';

declare module 'fastify' {
  interface FastifyRequest {
    hubOrgAccess?: OrganizationAccess;
  }
}

/**
 * For routes on `/api/organizations/:name/…`: the token must not be revoked by that
 * organization, the caller must be a member with the needed role, and the plan must allow it.
 */
@Injectable()
export class OrgAccessGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly directory: MembershipDirectory,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const need = this.reflector.get<OrgScopeRequirement | undefined>(ORG_SCOPED, context.getHandler());
    if (!need) return true;
    const req = context.switchToHttp().getRequest<FastifyRequest>();
    const auth = req.hubAuth;
    const name = (req.params as Record<string, string>)['name'] ?? '';
    if (!auth) return false;
    const access = await this.directory.accessTo(name, auth.user.id, contextOf(req));
    const org = access.organization;
    if (auth.revokedOrganizationIds.includes(org.id)) throw new TokenRevokedByOrgError(org.name);
    if (access.role === null) throw new NotAMemberError(org.name);
    if (need.role === 'admin' && access.role !== 'admin') throw new AdminRoleRequiredError(org.name, access.role);
    if (need.writeToken && auth.token.role === 'read') throw new WriteTokenRequiredError(org.name);
    if (need.minPlan && !planAtLeast(org.plan, need.minPlan)) {
      throw new PlanRequiredError(org.name, PLAN_LABELS[need.minPlan], PLAN_LABELS[org.plan]);
    }
    req.hubOrgAccess = access;
    return true;
  }
}

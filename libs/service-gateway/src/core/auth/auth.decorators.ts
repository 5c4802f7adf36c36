import { createParamDecorator, type ExecutionContext, SetMetadata } from '@nestjs/common';
import { type FastifyRequest } from 'fastify';
import { type OrgPlan, type RequestContext } from '@hub/contracts';
import { type OrganizationAccess } from '@hub/organizations-contract';
import { type AuthInfo } from '@hub/credentials-contract';
import { contextOf } from '../http/request-context';

export const PUBLIC_ROUTE = 'hub:public';
export const ADMIN_ROUTE = 'hub:admin';
export const ORG_SCOPED = 'hub:org-scoped';
export const STRICT_RATE_LIMIT = 'hub:rate-limit-strict';

/** No bearer token needed (spec 4.2: the leaked-token revocation). */
export const Public = (): MethodDecorator & ClassDecorator => SetMetadata(PUBLIC_ROUTE, true);

/** The admin API: bearer HUB_ADMIN_TOKEN instead of a user token. */
export const AdminOnly = (): MethodDecorator & ClassDecorator => SetMetadata(ADMIN_ROUTE, true);

export interface OrgScopeRequirement {
  /** Role the caller needs in the organization named by the `name` path parameter. */
  role?: 'admin';
  /** Lowest plan the organization must be on. */
  minPlan?: OrgPlan;
  /** The token must have write permission, even to read (SCIM, spec 5.5). */
  writeToken?: boolean;
}

/** The stricter per-address limit of public endpoints that do expensive or sensitive work. */
export const StrictRateLimit = (): MethodDecorator => SetMetadata(STRICT_RATE_LIMIT, true);

/** The route acts on the organization in `:name`: membership, role and plan are checked. */
export const OrgScoped = (req: OrgScopeRequirement = {}): MethodDecorator => SetMetadata(ORG_SCOPED, req);

/** The verified caller (set by the auth guard). */
export const CurrentAuth = createParamDecorator((_: unknown, ctx: ExecutionContext): AuthInfo => {
  const auth = ctx.switchToHttp().getRequest<FastifyRequest>().hubAuth;
  if (!auth) throw new Error('CurrentAuth used on a route without authentication');
  return auth;
});

/** The RPC context of this request. */
export const Ctx = createParamDecorator((_: unknown, ctx: ExecutionContext): RequestContext =>
  contextOf(ctx.switchToHttp().getRequest<FastifyRequest>()),
);

/** The organization of an @OrgScoped route and the caller's role in it (set by the org guard). */
export const CurrentOrg = createParamDecorator((_: unknown, ctx: ExecutionContext): OrganizationAccess => {
  const access = ctx.switchToHttp().getRequest<FastifyRequest>().hubOrgAccess;
  if (!access) throw new Error('CurrentOrg used on a route without @OrgScoped');
  return access;
});

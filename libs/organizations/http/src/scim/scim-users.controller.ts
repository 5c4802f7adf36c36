import { Body, Controller, Param, Post, Query, Req, Res } from '@nestjs/common';
import { ApiCreatedResponse, ApiOperation } from '@nestjs/swagger';
import { type FastifyReply, type FastifyRequest } from 'fastify';
import { type RequestContext } from '@hub/contracts';
import {
  SCIM_CONTENT_TYPE,
  type OrganizationAccess,
  ScimRpc,
  type ScimUserRecord,
  ScimUserView,
} from '@hub/organizations-contract';
import { RpcClient } from '@hub/messaging';
import { Ctx, CurrentOrg, MembershipCache, OrgNameParam } from '@hub/service-gateway';
import { listResponse, project, renderUser, scimBase } from './scim-render';
import { ScimIdParam, scimId } from './scim.params';
import { ifMatch, listArgs, notModified, scimBody, scimQuery } from './scim-query';
import {
  andSlash,
  ApiScimError,
  ScimChangeRoute,
  ScimController,
  ScimDeleteRoute,
  ScimGetRoute,
  ScimListRoute,
  ScimScoped,
} from './scim.decorators';

/** SCIM Users of an Enterprise Plus organization (RFC 7644, spec 5.5-5.7, decision 0420). */
@ScimController()
@Controller('api/organizations/:name/scim/v2/Users')
export class ScimUsersController {
  constructor(
    private readonly rpc: RpcClient,
    private readonly memberships: MembershipCache,
  ) {}

  /** The user, with ETag and the query's attribute selection; this gateway forgets the user's cached memberships at once. */
  private answer(
    req: FastifyRequest,
    reply: FastifyReply,
    org: OrganizationAccess,
    u: ScimUserRecord,
    q: Record<string, unknown> = {},
  ): Record<string, unknown> {
    this.memberships.delete(u.userId);
    void reply.header('etag', `W/"${u.version}"`);
    const { attributes, excludedAttributes } = scimQuery(q);
    return project(renderUser(u, scimBase(req, org.organization.name)), attributes, excludedAttributes);
  }

  @ScimListRoute(
    'List provisioned users: filter (RFC 7644 3.4.2.2 on the attributes /Schemas lists), sortBy, sortOrder, startIndex, count',
  )
  async list(
    @Param() _p: OrgNameParam,
    @Query() query: Record<string, unknown>,
    @CurrentOrg() org: OrganizationAccess,
    @Ctx() ctx: RequestContext,
    @Req() req: FastifyRequest,
  ): Promise<Record<string, unknown>> {
    const q = scimQuery(query);
    const page = await this.rpc.call(ScimRpc.ListUsers, listArgs(org.organization.name, q), ctx);
    const base = scimBase(req, org.organization.name);
    return listResponse(page, (u) => renderUser(u, base), q);
  }

  @ScimGetRoute('One provisioned user', ScimUserView, 'The user')
  async get(
    @Param() p: ScimIdParam,
    @Query() query: Record<string, unknown>,
    @CurrentOrg() org: OrganizationAccess,
    @Ctx() ctx: RequestContext,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Record<string, unknown> | undefined> {
    const found = await this.rpc.call(
      ScimRpc.GetUser,
      { organization: org.organization.name, id: scimId(p.id, 'User') },
      ctx,
    );
    if (notModified(req, reply, found.version)) return undefined;
    void reply.header('content-type', `${SCIM_CONTENT_TYPE}; charset=utf-8`);
    return this.answer(req, reply, org, found, query);
  }

  @Post(andSlash())
  @ScimScoped()
  @ApiOperation({
    summary:
      'Provision a user: a new hub account managed by the organization, named from userName (decision 0421); it joins the organization',
  })
  @ApiCreatedResponse({ description: 'The user (Location header: its URL)', type: ScimUserView })
  @ApiScimError(400, 'userName missing or over 256 characters, a bad e-mail, or no e-mail (scimType invalidValue)')
  @ApiScimError(409, 'The userName is already provisioned in this organization, any case (scimType uniqueness)')
  async create(
    @Param() _p: OrgNameParam,
    @Body() body: unknown,
    @CurrentOrg() org: OrganizationAccess,
    @Ctx() ctx: RequestContext,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Record<string, unknown>> {
    const user = await this.rpc.call(
      ScimRpc.CreateUser,
      { organization: org.organization.name, resource: scimBody(body) },
      ctx,
    );
    void reply.header('location', `${scimBase(req, org.organization.name)}/Users/${user.id}`);
    return this.answer(req, reply, org, user);
  }

  @ScimChangeRoute(
    'put',
    'Replace a user (attributes the hub does not keep are ignored; userName may change, the hub account keeps its name)',
    ScimUserView,
    'The user',
  )
  @ApiScimError(400, 'A bad attribute value (scimType invalidValue)')
  async replace(
    @Param() p: ScimIdParam,
    @Body() body: unknown,
    @CurrentOrg() org: OrganizationAccess,
    @Ctx() ctx: RequestContext,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Record<string, unknown>> {
    return this.answer(
      req,
      reply,
      org,
      await this.rpc.call(
        ScimRpc.ReplaceUser,
        {
          organization: org.organization.name,
          id: scimId(p.id, 'User'),
          resource: scimBody(body),
          ifMatch: ifMatch(req),
        },
        ctx,
      ),
    );
  }

  @ScimChangeRoute(
    'patch',
    'Change a user with PatchOp operations (active: false suspends the membership, true restores it)',
    ScimUserView,
    'The user',
  )
  @ApiScimError(400, 'A malformed operation, path or value (scimType invalidValue, invalidPath, noTarget, mutability)')
  @ApiScimError(409, 'Suspending the last admin of the organization')
  async patch(
    @Param() p: ScimIdParam,
    @Body() body: unknown,
    @CurrentOrg() org: OrganizationAccess,
    @Ctx() ctx: RequestContext,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Record<string, unknown>> {
    return this.answer(
      req,
      reply,
      org,
      await this.rpc.call(
        ScimRpc.PatchUser,
        { organization: org.organization.name, id: scimId(p.id, 'User'), patch: scimBody(body), ifMatch: ifMatch(req) },
        ctx,
      ),
    );
  }

  @ScimDeleteRoute('Deprovision a user: it leaves the organization and its resource groups (the hub user stays)')
  @ApiScimError(409, 'The user is the last admin of the organization')
  async delete(
    @Param() p: ScimIdParam,
    @CurrentOrg() org: OrganizationAccess,
    @Ctx() ctx: RequestContext,
    @Req() req: FastifyRequest,
  ): Promise<void> {
    const { userIds } = await this.rpc.call(
      ScimRpc.DeleteUser,
      { organization: org.organization.name, id: scimId(p.id, 'User'), ifMatch: ifMatch(req) },
      ctx,
    );
    userIds.forEach((id) => this.memberships.delete(id));
  }
}

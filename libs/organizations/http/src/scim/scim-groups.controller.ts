import { Body, Controller, Param, Post, Query, Req, Res } from '@nestjs/common';
import { ApiCreatedResponse, ApiOperation } from '@nestjs/swagger';
import { type FastifyReply, type FastifyRequest } from 'fastify';
import { type RequestContext } from '@hub/contracts';
import {
  SCIM_CONTENT_TYPE,
  type OrganizationAccess,
  type ScimGroupRecord,
  ScimGroupView,
  ScimRpc,
} from '@hub/organizations-contract';
import { RpcClient } from '@hub/messaging';
import { Ctx, CurrentOrg, OrgNameParam } from '@hub/service-gateway';
import { listResponse, project, renderGroup, scimBase } from './scim-render';
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

/** SCIM Groups: resource groups whose users the identity provider manages (decision 0420). */
@ScimController()
@Controller('api/organizations/:name/scim/v2/Groups')
export class ScimGroupsController {
  constructor(private readonly rpc: RpcClient) {}

  private answer(
    req: FastifyRequest,
    reply: FastifyReply,
    org: OrganizationAccess,
    g: ScimGroupRecord,
    q: Record<string, unknown> = {},
  ): Record<string, unknown> {
    void reply.header('etag', `W/"${g.version}"`);
    const { attributes, excludedAttributes } = scimQuery(q);
    return project(renderGroup(g, scimBase(req, org.organization.name)), attributes, excludedAttributes);
  }

  @ScimListRoute(
    'List SCIM groups: filter (RFC 7644 3.4.2.2 on displayName, externalId, id, members, meta.created, meta.lastModified), sortBy, sortOrder, startIndex, count',
  )
  async list(
    @Param() _p: OrgNameParam,
    @Query() query: Record<string, unknown>,
    @CurrentOrg() org: OrganizationAccess,
    @Ctx() ctx: RequestContext,
    @Req() req: FastifyRequest,
  ): Promise<Record<string, unknown>> {
    const q = scimQuery(query);
    const page = await this.rpc.call(ScimRpc.ListGroups, listArgs(org.organization.name, q), ctx);
    const base = scimBase(req, org.organization.name);
    return listResponse(page, (g) => renderGroup(g, base), q);
  }

  @ScimGetRoute('One SCIM group (excludedAttributes=members leaves the members out)', ScimGroupView, 'The group')
  async get(
    @Param() p: ScimIdParam,
    @Query() query: Record<string, unknown>,
    @CurrentOrg() org: OrganizationAccess,
    @Ctx() ctx: RequestContext,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Record<string, unknown> | undefined> {
    const found = await this.rpc.call(
      ScimRpc.GetGroup,
      { organization: org.organization.name, id: scimId(p.id, 'Group') },
      ctx,
    );
    if (notModified(req, reply, found.version)) return undefined;
    void reply.header('content-type', `${SCIM_CONTENT_TYPE}; charset=utf-8`);
    return this.answer(req, reply, org, found, query);
  }

  @Post(andSlash())
  @ScimScoped()
  @ApiOperation({
    summary: 'Provision a group: links the resource group of that name (empty, auto-join off) or creates one',
  })
  @ApiCreatedResponse({ description: 'The group (Location header: its URL)', type: ScimGroupView })
  @ApiScimError(
    400,
    'displayName missing or too long, or a member that is not a provisioned user (scimType invalidValue)',
  )
  @ApiScimError(
    409,
    'A group of that name is already provisioned (uniqueness), or its resource group has users or auto-join on',
  )
  async create(
    @Param() _p: OrgNameParam,
    @Body() body: unknown,
    @CurrentOrg() org: OrganizationAccess,
    @Ctx() ctx: RequestContext,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Record<string, unknown>> {
    const group = await this.rpc.call(
      ScimRpc.CreateGroup,
      { organization: org.organization.name, resource: scimBody(body) },
      ctx,
    );
    void reply.header('location', `${scimBase(req, org.organization.name)}/Groups/${group.id}`);
    return this.answer(req, reply, org, group);
  }

  @ScimChangeRoute('put', 'Replace a group: its name and its members', ScimGroupView, 'The group')
  @ApiScimError(400, 'A bad attribute value or member (scimType invalidValue)')
  async replace(
    @Param() p: ScimIdParam,
    @Body() body: unknown,
    @CurrentOrg() org: OrganizationAccess,
    @Ctx() ctx: RequestContext,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Record<string, unknown>> {
    const group = await this.rpc.call(
      ScimRpc.ReplaceGroup,
      {
        organization: org.organization.name,
        id: scimId(p.id, 'Group'),
        resource: scimBody(body),
        ifMatch: ifMatch(req),
      },
      ctx,
    );
    return this.answer(req, reply, org, group);
  }

  @ScimChangeRoute(
    'patch',
    'Change a group with PatchOp operations (members add/remove/replace, displayName)',
    ScimGroupView,
    'The group',
  )
  @ApiScimError(400, 'A malformed operation, path or value (scimType invalidValue, invalidPath, noTarget, mutability)')
  async patch(
    @Param() p: ScimIdParam,
    @Body() body: unknown,
    @CurrentOrg() org: OrganizationAccess,
    @Ctx() ctx: RequestContext,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Record<string, unknown>> {
    const group = await this.rpc.call(
      ScimRpc.PatchGroup,
      { organization: org.organization.name, id: scimId(p.id, 'Group'), patch: scimBody(body), ifMatch: ifMatch(req) },
      ctx,
    );
    return this.answer(req, reply, org, group);
  }

  @ScimDeleteRoute(
    'Deprovision a group: the resource group stays, without its provisioned users and no longer managed by SCIM',
  )
  async delete(
    @Param() p: ScimIdParam,
    @CurrentOrg() org: OrganizationAccess,
    @Ctx() ctx: RequestContext,
    @Req() req: FastifyRequest,
  ): Promise<void> {
    await this.rpc.call(
      ScimRpc.DeleteGroup,
      { organization: org.organization.name, id: scimId(p.id, 'Group'), ifMatch: ifMatch(req) },
      ctx,
    );
  }
}

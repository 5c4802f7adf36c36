import { applyDecorators, Controller, Delete, Get, Param, Patch, Post, Put, Req } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { type FastifyRequest } from 'fastify';
import {
  type OrganizationAccess,
  ScimListView,
  ScimNotImplementedError,
  ScimResourceNotFoundError,
} from '@hub/organizations-contract';
import { CurrentOrg, OrgNameParam } from '@hub/service-gateway';
import { listOf, resourceTypes, schemas, serviceProviderConfig } from './scim-discovery';
import { scimBase } from './scim-render';
import { ScimIdParam } from './scim.params';
import { andSlash, ApiScimError, ScimController, ScimScoped } from './scim.decorators';

const ME = '/Me is not supported: a hub token names a hub user, not a provisioned one (use /Users/{id})';
const MeNotSupported = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({ summary: 'Not supported (RFC 7644 3.11): always 501' }),
    ApiScimError(501, '/Me is not supported'),
  );
const OBJECT = { type: 'object', additionalProperties: true } as const;

function one(all: Record<string, unknown>[], id: string, kind: string): Record<string, unknown> {
  const found = all.find((r) => r['id'] === id);
  if (!found) throw new ScimResourceNotFoundError(kind, id.slice(0, 100));
  return found;
}

/** RFC 7644 4: ServiceProviderConfig, ResourceTypes, Schemas (under the same gate as the resources). */
@ScimController()
@Controller('api/organizations/:name/scim/v2')
export class ScimDiscoveryController {
  @Get(andSlash('ServiceProviderConfig'))
  @ScimScoped()
  @ApiOperation({ summary: 'What this SCIM server supports (PATCH, filter, sort, ETags; no bulk or password change)' })
  @ApiOkResponse({ description: 'The configuration', schema: OBJECT })
  config(
    @Param() _p: OrgNameParam,
    @CurrentOrg() org: OrganizationAccess,
    @Req() req: FastifyRequest,
  ): Record<string, unknown> {
    return serviceProviderConfig(scimBase(req, org.organization.name));
  }

  @Get(andSlash('ResourceTypes'))
  @ScimScoped()
  @ApiOperation({ summary: 'The resource types: User and Group' })
  @ApiOkResponse({ description: 'A ListResponse', type: ScimListView })
  resourceTypes(
    @Param() _p: OrgNameParam,
    @CurrentOrg() org: OrganizationAccess,
    @Req() req: FastifyRequest,
  ): Record<string, unknown> {
    return listOf(resourceTypes(scimBase(req, org.organization.name)));
  }

  @Get(andSlash('ResourceTypes/:id'))
  @ScimScoped()
  @ApiOperation({ summary: 'One resource type' })
  @ApiOkResponse({ description: 'The resource type', schema: OBJECT })
  resourceType(
    @Param() p: ScimIdParam,
    @CurrentOrg() org: OrganizationAccess,
    @Req() req: FastifyRequest,
  ): Record<string, unknown> {
    return one(resourceTypes(scimBase(req, org.organization.name)), p.id, 'ResourceType');
  }

  @Get(andSlash('Schemas'))
  @ScimScoped()
  @ApiOperation({ summary: 'The User and Group schemas, with the attributes the hub keeps' })
  @ApiOkResponse({ description: 'A ListResponse', type: ScimListView })
  schemas(
    @Param() _p: OrgNameParam,
    @CurrentOrg() org: OrganizationAccess,
    @Req() req: FastifyRequest,
  ): Record<string, unknown> {
    return listOf(schemas(scimBase(req, org.organization.name)));
  }

  @Get(andSlash('Schemas/:id'))
  @ScimScoped()
  @ApiOperation({ summary: 'One schema, by its URN' })
  @ApiOkResponse({ description: 'The schema', schema: OBJECT })
  schema(
    @Param() p: ScimIdParam,
    @CurrentOrg() org: OrganizationAccess,
    @Req() req: FastifyRequest,
  ): Record<string, unknown> {
    return one(schemas(scimBase(req, org.organization.name)), p.id, 'Schema');
  }

  /** RFC 7644 3.11: /Me is not supported, which the RFC asks to answer 501 (a token names a hub user, not a provisioned one). */
  @Get(andSlash('Me'))
  @ScimScoped()
  @MeNotSupported()
  me(@Param() _p: OrgNameParam): never {
    throw new ScimNotImplementedError(ME);
  }

  @Post(andSlash('Me'))
  @ScimScoped()
  @MeNotSupported()
  createMe(@Param() _p: OrgNameParam): never {
    throw new ScimNotImplementedError(ME);
  }

  @Put(andSlash('Me'))
  @ScimScoped()
  @MeNotSupported()
  replaceMe(@Param() _p: OrgNameParam): never {
    throw new ScimNotImplementedError(ME);
  }

  @Patch(andSlash('Me'))
  @ScimScoped()
  @MeNotSupported()
  patchMe(@Param() _p: OrgNameParam): never {
    throw new ScimNotImplementedError(ME);
  }

  @Delete(andSlash('Me'))
  @ScimScoped()
  @MeNotSupported()
  deleteMe(@Param() _p: OrgNameParam): never {
    throw new ScimNotImplementedError(ME);
  }
}

import { applyDecorators, Delete, Get, Header, HttpCode, Patch, Put, type Type } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiExtraModels,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiProduces,
  ApiQuery,
  ApiResponse,
  ApiTags,
} from '@nestjs/swagger';
import { SCIM_CONTENT_TYPE, ScimErrorBody, ScimListView } from '@hub/organizations-contract';
import { OrgScoped } from '@hub/service-gateway';

/** Spec 5.5: the caller is an owner (admin) of the organization, with a write token, and the organization is on Enterprise Plus. */
export const ScimScoped = (answer: 'body' | 'no content' = 'body'): MethodDecorator =>
  applyDecorators(
    OrgScoped({ role: 'admin', minPlan: 'enterprise_plus', writeToken: true }),
    // A 204 carries no body, so no content type either.
    ...(answer === 'body' ? [Header('Content-Type', `${SCIM_CONTENT_TYPE}; charset=utf-8`)] : []),
    ApiResponse({
      status: 403,
      description: 'Not an admin of the organization, a read token, or the plan is not Enterprise Plus',
      type: ScimErrorBody,
    }),
    ApiResponse({ status: 404, description: 'No such organization, or no such resource in it', type: ScimErrorBody }),
  );

/** A SCIM controller: every answer, errors included, is application/scim+json (RFC 7644 3.1). */
export const ScimController = (): ClassDecorator =>
  applyDecorators(ApiTags('scim'), ApiBearerAuth(), ApiProduces(SCIM_CONTENT_TYPE), ApiExtraModels(ScimErrorBody));

export function ApiScimError(status: number, description: string): MethodDecorator {
  return ApiResponse({ status, description, type: ScimErrorBody });
}

/**
 * A route path and the same with a trailing slash (`/Users/` finds `/Users`): Nest drops one
 * trailing slash when it joins paths, so the second form ends in two.
 */
export const andSlash = (path = ''): string[] => [path, `${path}//`];

const PRECONDITION_FAILED = 'If-Match names another version than the current one: nothing was changed (RFC 7644 3.14)';

/** GET of a resource type's list (RFC 7644 3.4.2): the query parameters every SCIM list takes. */
export const ScimListRoute = (summary: string): MethodDecorator =>
  applyDecorators(
    Get(andSlash()),
    ScimScoped(),
    ApiOperation({ summary }),
    ...['filter', 'startIndex', 'count', 'attributes', 'excludedAttributes', 'sortBy'].map((name) =>
      ApiQuery({ name, required: false }),
    ),
    ApiQuery({ name: 'sortOrder', required: false, enum: ['ascending', 'descending'] }),
    ApiOkResponse({ description: 'A ListResponse (empty when nothing matches)', type: ScimListView }),
    ApiScimError(400, 'An unsupported filter (scimType invalidFilter) or a malformed paging parameter'),
  );

/** GET of one resource, 304 when If-None-Match names its version (the content type is set in code: a 304 has no body). */
export const ScimGetRoute = (summary: string, type: Type<unknown>, description: string): MethodDecorator =>
  applyDecorators(
    Get(andSlash(':id')),
    ScimScoped('no content'),
    ApiResponse({ status: 304, description: 'If-None-Match names the current version (RFC 7644 3.14): no body' }),
    ApiOperation({ summary }),
    ApiOkResponse({ description, type }),
  );

/** PUT or PATCH of one resource, checked against If-Match. */
export const ScimChangeRoute = (
  method: 'put' | 'patch',
  summary: string,
  type: Type<unknown>,
  description: string,
): MethodDecorator =>
  applyDecorators(
    (method === 'put' ? Put : Patch)(andSlash(':id')),
    ScimScoped(),
    ApiScimError(412, PRECONDITION_FAILED),
    ApiOperation({ summary }),
    ApiOkResponse({ description, type }),
  );

/** DELETE of one resource, checked against If-Match: 204. */
export const ScimDeleteRoute = (summary: string): MethodDecorator =>
  applyDecorators(
    Delete(andSlash(':id')),
    ScimScoped('no content'),
    ApiScimError(412, PRECONDITION_FAILED),
    HttpCode(204),
    ApiOperation({ summary }),
    ApiNoContentResponse({ description: 'Gone' }),
  );

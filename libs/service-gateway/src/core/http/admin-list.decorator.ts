import { applyDecorators, Get, type Type } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { ApiErrorResponse, LINK_HEADER } from '../index';

/**
 * An admin list (decision 0004): a GET answering a bare array paged by `Link: rel="next"`, with the
 * 400 of a bad paging parameter and the 403 a user's token or session gets (UserTokenOnAdminApiError).
 */
export function AdminListRoute(path: string, summary: string, type: Type<unknown>, rows: string): MethodDecorator {
  return applyDecorators(
    Get(path),
    ApiOperation({ summary }),
    ApiOkResponse({ description: `One page of ${rows}`, type, isArray: true, headers: LINK_HEADER }),
    ApiErrorResponse(400, 'A query parameter out of range, or a cursor not given by a Link header'),
    ApiErrorResponse(403, 'A user token or a user session: the admin API needs the admin token'),
  );
}

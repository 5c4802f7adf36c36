import { Controller, Get, Param, Query, Req, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { type FastifyReply, type FastifyRequest } from 'fastify';
import { type RequestContext } from '@hub/contracts';
import { RepositoriesRpc, RepoUsageQueryDto, RepoUsageView } from '@hub/organizations-contract';
import { type AuthInfo } from '@hub/credentials-contract';
import { RpcClient } from '@hub/messaging';
import {
  ApiErrorResponse,
  Ctx,
  CurrentAuth,
  LINK_HEADER,
  OrgNameParam,
  OrgScoped,
  pagedAnswer,
} from '@hub/service-gateway';

/** Repository storage usage of a user or an organization (spec 4.3, 4.4), from organizations' catalogue. */
@ApiTags('orgs')
@ApiBearerAuth()
@Controller('api')
export class RepoUsageController {
  constructor(private readonly rpc: RpcClient) {}

  @Get('settings/repositories')
  @ApiOperation({ summary: "The caller's repositories with their storage (paged by Link headers)" })
  @ApiOkResponse({ description: 'One page of repositories', type: RepoUsageView, isArray: true, headers: LINK_HEADER })
  @ApiErrorResponse(400, 'A query parameter out of range')
  async mine(
    @Query() query: RepoUsageQueryDto,
    @CurrentAuth() auth: AuthInfo,
    @Ctx() ctx: RequestContext,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<RepoUsageView[]> {
    return pagedAnswer(req, reply, await this.rpc.call(RepositoriesRpc.List, { owner: auth.user.name, query }, ctx));
  }

  @Get('organizations/:name/settings/repositories')
  @OrgScoped()
  @ApiOperation({ summary: "The organization's repositories with their storage, private ones included (members only)" })
  @ApiOkResponse({ description: 'One page of repositories', type: RepoUsageView, isArray: true, headers: LINK_HEADER })
  @ApiErrorResponse(400, 'A query parameter out of range')
  @ApiErrorResponse(
    403,
    'Not a member, a member with the no_access role, or the token was revoked by this organization',
  )
  @ApiErrorResponse(404, 'No such organization')
  async organization(
    @Param() p: OrgNameParam,
    @Query() query: RepoUsageQueryDto,
    @Ctx() ctx: RequestContext,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<RepoUsageView[]> {
    return pagedAnswer(req, reply, await this.rpc.call(RepositoriesRpc.List, { owner: p.name, query }, ctx));
  }
}

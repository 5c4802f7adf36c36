import { Body, Controller, Param, Post, Query, Req, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiCreatedResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { type FastifyReply, type FastifyRequest } from 'fastify';
import {
  AdminCreateTokenDto,
  AdminCreateUserDto,
  AdminNamesQueryDto,
  AdminTokensQueryDto,
  type RequestContext,
} from '@hub/contracts';
import { AdminTokenView, AdminUserView, CredentialsRpc, UserView } from '@hub/credentials-contract';
import { RpcClient } from '@hub/messaging';
import { AdminOnly, ApiErrorResponse, Ctx, pagedAnswer, UserNameParam } from '../core';
import { AdminListRoute } from './admin-list.decorator';
import { CreatedTokenAnswer } from './admin.views';

@ApiTags('admin')
@ApiBearerAuth()
@AdminOnly()
@Controller('admin/users')
export class AdminUsersController {
  constructor(private readonly rpc: RpcClient) {}

  @Post()
  @ApiOperation({ summary: 'Create a user' })
  @ApiCreatedResponse({ description: 'The user', type: UserView })
  @ApiErrorResponse(409, 'The name is taken')
  create(@Body() dto: AdminCreateUserDto, @Ctx() ctx: RequestContext): Promise<UserView> {
    return this.rpc.call(CredentialsRpc.CreateUser, dto, ctx);
  }

  @AdminListRoute(
    '',
    'List users by name, filtered by `search` (name, e-mail or full name; paged by Link headers)',
    AdminUserView,
    'users',
  )
  async list(
    @Query() query: AdminNamesQueryDto,
    @Ctx() ctx: RequestContext,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<AdminUserView[]> {
    return pagedAnswer(req, reply, await this.rpc.call(CredentialsRpc.ListUsers, query, ctx));
  }

  @Post(':name/tokens')
  @ApiOperation({ summary: 'Create an access token for a user; the raw token is in this answer only' })
  @ApiCreatedResponse({ description: 'The token, with its raw value', type: CreatedTokenAnswer })
  @ApiErrorResponse(404, 'No such user')
  async createToken(
    @Param() p: UserNameParam,
    @Body() dto: AdminCreateTokenDto,
    @Ctx() ctx: RequestContext,
  ): Promise<CreatedTokenAnswer> {
    const created = await this.rpc.call(CredentialsRpc.CreateToken, { user: p.name, ...dto }, ctx);
    return { token: created.token, ...created.tokenInfo };
  }

  @AdminListRoute(
    ':name/tokens',
    "List a user's tokens, revoked ones too, newest first, filtered by `search` (display name; paged by Link headers). Never a token's value or hash",
    AdminTokenView,
    'tokens',
  )
  @ApiErrorResponse(404, 'No such user')
  async listTokens(
    @Param() p: UserNameParam,
    @Query() query: AdminTokensQueryDto,
    @Ctx() ctx: RequestContext,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<AdminTokenView[]> {
    return pagedAnswer(req, reply, await this.rpc.call(CredentialsRpc.ListTokens, { user: p.name, ...query }, ctx));
  }
}

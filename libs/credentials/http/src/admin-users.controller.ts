import { Body, Controller, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import { Length } from 'class-validator';
import { type FastifyReply, type FastifyRequest } from 'fastify';
import { AdminNamesQueryDto, AdminTokensQueryDto, type RequestContext } from '@hub/contracts';
import {
  AdminCreateTokenDto,
  AdminCreateUserDto,
  AdminTokenView,
  AdminUserView,
  CreatedTokenAnswer,
  CredentialsRpc,
  UserView,
} from '@hub/credentials-contract';
import { RpcClient } from '@hub/messaging';
import { AdminListRoute, AdminOnly, ApiErrorResponse, Ctx, pagedAnswer, UserNameParam } from '@hub/service-gateway';

export class UserTokenParam extends UserNameParam {
  @ApiProperty()
  @Length(1, 64, { message: 'tokenId must be 1..64 characters' })
  tokenId!: string;
}

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

  @Post(':name/tokens/:tokenId/revoke')
  @HttpCode(200)
  @ApiOperation({
    summary:
      "Revoke one of a user's tokens by its id (decision 0807): it stops working everywhere before the answer; a revoked one is answered as it is",
  })
  @ApiOkResponse({ description: 'The token, with revokedAt', type: AdminTokenView })
  @ApiErrorResponse(404, 'No such user, or no token of this id among its tokens')
  revokeToken(@Param() p: UserTokenParam, @Ctx() ctx: RequestContext): Promise<AdminTokenView> {
    return this.rpc.call(CredentialsRpc.RevokeById, { user: p.name, tokenId: p.tokenId }, ctx);
  }
}

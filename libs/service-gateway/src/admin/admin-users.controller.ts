import { Body, Controller, Param, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiCreatedResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AdminCreateTokenDto, AdminCreateUserDto, CredentialsRpc, type RequestContext, UserView } from '@hub/contracts';
import { RpcClient } from '@hub/messaging';
import { AdminOnly, ApiErrorResponse, Ctx, UserNameParam } from '../core';
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
}

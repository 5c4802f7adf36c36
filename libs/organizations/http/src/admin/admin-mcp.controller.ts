import { Body, Controller, Param, Put } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { type RequestContext } from '@hub/contracts';
import { McpRpc, McpSettingsView } from '@hub/organizations-contract';
import { CredentialsRpc } from '@hub/credentials-contract';
import { RpcClient } from '@hub/messaging';
import { AdminOnly, ApiErrorResponse, Ctx, UserNameParam } from '@hub/service-gateway';

@ApiTags('admin')
@ApiBearerAuth()
@AdminOnly()
@Controller('admin/users/:name/mcp')
export class AdminMcpController {
  constructor(private readonly rpc: RpcClient) {}

  @Put()
  @ApiOperation({ summary: "Replace a user's MCP settings" })
  @ApiOkResponse({ description: 'The settings', type: McpSettingsView })
  @ApiErrorResponse(404, 'No such user')
  async set(
    @Param() p: UserNameParam,
    @Body() dto: McpSettingsView,
    @Ctx() ctx: RequestContext,
  ): Promise<McpSettingsView> {
    const user = await this.rpc.call(CredentialsRpc.GetUser, { name: p.name }, ctx);
    return this.rpc.call(McpRpc.Set, { userId: user.id, settings: dto }, ctx);
  }
}

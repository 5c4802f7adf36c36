import { Controller, Get } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { type RequestContext } from '@hub/contracts';
import { McpRpc, McpSettingsView } from '@hub/organizations-contract';
import { type AuthInfo } from '@hub/credentials-contract';
import { RpcClient } from '@hub/messaging';
import { Ctx, CurrentAuth } from '@hub/service-gateway';

@ApiTags('mcp')
@ApiBearerAuth()
@Controller('api/settings/mcp')
export class McpController {
  constructor(private readonly rpc: RpcClient) {}

  @Get()
  @ApiOperation({ summary: "The caller's MCP tools: built-in ones and Spaces" })
  @ApiOkResponse({ description: 'The settings (defaults for a new user)', type: McpSettingsView })
  settings(@CurrentAuth() auth: AuthInfo, @Ctx() ctx: RequestContext): Promise<McpSettingsView> {
    return this.rpc.call(McpRpc.Get, { userId: auth.user.id }, ctx);
  }
}

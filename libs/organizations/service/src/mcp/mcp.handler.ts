import { McpRpc, type McpSettingsView, McpUserRpc, SetMcpSettingsRpc } from '@hub/organizations-contract';
import { RpcController, RpcHandler } from '@hub/messaging';
import { GetMcpSettingsUseCase } from './get-mcp-settings.use-case';
import { SetMcpSettingsUseCase } from './set-mcp-settings.use-case';

@RpcController()
export class McpHandler {
  constructor(
    private readonly getSettings: GetMcpSettingsUseCase,
    private readonly setSettings: SetMcpSettingsUseCase,
  ) {}

  @RpcHandler(McpRpc.Get)
  onGet(dto: McpUserRpc): Promise<McpSettingsView> {
    return this.getSettings.execute(dto);
  }

  @RpcHandler(McpRpc.Set)
  onSet(dto: SetMcpSettingsRpc): Promise<McpSettingsView> {
    return this.setSettings.execute(dto);
  }
}

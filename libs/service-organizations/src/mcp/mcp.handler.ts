import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource } from 'typeorm';
import {
  DEFAULT_MCP_BUILT_IN_TOOLS,
  McpRpc,
  type McpSettingsView,
  McpUserRpc,
  SetMcpSettingsRpc,
} from '@hub/contracts';
import { RpcController, RpcHandler } from '@hub/messaging';
import { ORGANIZATIONS_DS } from '../organizations.tokens';

/** A user's MCP settings (spec 4.3): the defaults until the admin API sets them. */
@RpcController()
export class McpHandler {
  constructor(@InjectDataSource(ORGANIZATIONS_DS) private readonly ds: DataSource) {}

  @RpcHandler(McpRpc.Get)
  async onGet(dto: McpUserRpc): Promise<McpSettingsView> {
    const [row] = (await this.ds.query(`SELECT settings FROM organizations.mcp_settings WHERE user_id = $1`, [
      dto.userId,
    ])) as { settings: string }[];
    return row
      ? (JSON.parse(row.settings) as McpSettingsView)
      : { builtInTools: [...DEFAULT_MCP_BUILT_IN_TOOLS], spaceTools: [] };
  }

  @RpcHandler(McpRpc.Set)
  async onSet(dto: SetMcpSettingsRpc): Promise<McpSettingsView> {
    const settings: McpSettingsView = {
      builtInTools: [...new Set(dto.settings.builtInTools)],
      spaceTools: dto.settings.spaceTools.map((s) => ({
        _id: s._id,
        name: s.name,
        emoji: s.emoji,
        subdomain: s.subdomain,
      })),
    };
    await this.ds.query(
      `INSERT INTO organizations.mcp_settings (user_id, settings) VALUES ($1, $2)
       ON CONFLICT (user_id) DO UPDATE SET settings = EXCLUDED.settings, updated_at = now()`,
      [dto.userId, JSON.stringify(settings)],
    );
    return settings;
  }
}

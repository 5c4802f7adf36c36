import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource } from 'typeorm';
import { McpRpc, type McpSettingsView, type SetMcpSettingsRpc } from '@hub/organizations-contract';
import { ORGANIZATIONS_DS } from '../organizations.di';
import { McpStore } from './mcp.store';
import { RpcHandler } from '@hub/messaging';

/** Replaces a user's MCP settings: built-in tools once each, space tools with only the fields the view has. */
@Injectable()
export class SetMcpSettingsUseCase {
  constructor(@InjectDataSource(ORGANIZATIONS_DS) private readonly ds: DataSource) {}

  @RpcHandler(McpRpc.Set)
  async execute(dto: SetMcpSettingsRpc): Promise<McpSettingsView> {
    const settings: McpSettingsView = {
      builtInTools: [...new Set(dto.settings.builtInTools)],
      spaceTools: dto.settings.spaceTools.map((s) => ({
        _id: s._id,
        name: s.name,
        emoji: s.emoji,
        subdomain: s.subdomain,
      })),
    };
    await McpStore.put(this.ds.manager, dto.userId, settings);
    return settings;
  }
}

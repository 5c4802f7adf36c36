import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource } from 'typeorm';
import { DEFAULT_MCP_BUILT_IN_TOOLS, McpRpc, type McpSettingsView, type McpUserRpc } from '@hub/organizations-contract';
import { ORGANIZATIONS_DS } from '../organizations.di';
import { McpStore } from './mcp.store';
import { RpcHandler } from '@hub/messaging';

/** A user's MCP settings (spec 4.3): the defaults until the admin API sets them. */
@Injectable()
export class GetMcpSettingsUseCase {
  constructor(@InjectDataSource(ORGANIZATIONS_DS) private readonly ds: DataSource) {}

  @RpcHandler(McpRpc.Get)
  async execute(dto: McpUserRpc): Promise<McpSettingsView> {
    return (
      (await McpStore.get(this.ds.manager, dto.userId)) ?? {
        builtInTools: [...DEFAULT_MCP_BUILT_IN_TOOLS],
        spaceTools: [],
      }
    );
  }
}

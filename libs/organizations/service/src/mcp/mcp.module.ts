import { type DynamicModule, Module } from '@nestjs/common';
import { GetMcpSettingsUseCase } from './get-mcp-settings.use-case';
import { SetMcpSettingsUseCase } from './set-mcp-settings.use-case';

/** A user's MCP settings. */
@Module({})
export class McpModule {
  /** `core`: the service's shared `OrganizationsCoreModule` (DataSource, outbox, config). */
  static register(core: DynamicModule): DynamicModule {
    return {
      module: McpModule,
      imports: [core],
      providers: [GetMcpSettingsUseCase, SetMcpSettingsUseCase],
    };
  }
}

import { Controller, Get, Inject } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { GATEWAY_CONFIG, type GatewayConfig, Public } from '../core';
import { ConsoleConfigView } from './console-config.view';

/** The few server-side settings the web console reads (decision 0808); nothing secret, so no sign-in. */
@ApiTags('console')
@Controller('api/console/config')
export class ConsoleConfigController {
  constructor(@Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig) {}

  @Get()
  @Public()
  @ApiOperation({ summary: "The console's settings: the hub's website its notifications link to" })
  @ApiOkResponse({ description: 'The settings', type: ConsoleConfigView })
  get(): ConsoleConfigView {
    return { websiteUrl: this.config.websiteUrl };
  }
}

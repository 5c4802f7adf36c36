import { Module } from '@nestjs/common';
import { ConsoleConfigController } from './console-config.controller';
import { ConsoleSessionController } from './console-session.controller';

/** The web console's session endpoints and settings; its files are served by serveConsole (createGatewayApp). */
@Module({ controllers: [ConsoleSessionController, ConsoleConfigController] })
export class ConsoleApiModule {}

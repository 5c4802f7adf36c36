import { Module } from '@nestjs/common';
import { ConsoleConfigController } from './console-config.controller';

/**
 * The web console's settings; its files are served by serveConsole (createGatewayApp), its session
 * routes are credentials' (`libs/credentials/http`, console-session.controller.ts).
 */
@Module({ controllers: [ConsoleConfigController] })
export class ConsoleApiModule {}

import { Module } from '@nestjs/common';
import { ConsoleSessionController } from './console-session.controller';

/** The web console's session endpoints; its files are served by serveConsole (createGatewayApp). */
@Module({ controllers: [ConsoleSessionController] })
export class ConsoleApiModule {}

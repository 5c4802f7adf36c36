import { Module } from '@nestjs/common';
import { WebhooksController } from './webhooks.controller';

/** `/api/settings/webhooks/…`: webhook management (spec 4.5). */
@Module({ controllers: [WebhooksController] })
export class WebhooksApiModule {}

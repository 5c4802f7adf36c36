import { Module } from '@nestjs/common';
import { WebhookDeliveryOptionsController } from './webhook-delivery-options.controller';
import { WebhooksController } from './webhooks.controller';

/** `/api/settings/webhooks/…`: webhook management (spec 4.5). */
@Module({ controllers: [WebhooksController, WebhookDeliveryOptionsController] })
export class WebhooksApiModule {}

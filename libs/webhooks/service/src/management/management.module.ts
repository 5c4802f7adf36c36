import { type DynamicModule, Module } from '@nestjs/common';
import { CreateWebhookUseCase } from './create-webhook.use-case';
import { DeleteWebhookUseCase } from './delete-webhook.use-case';
import { GetWebhookHeadersUseCase } from './get-webhook-headers.use-case';
import { GetWebhookUseCase } from './get-webhook.use-case';
import { ListWebhooksUseCase } from './list-webhooks.use-case';
import { SetWebhookHeadersUseCase } from './set-webhook-headers.use-case';
import { SetWebhookStateUseCase } from './set-webhook-state.use-case';
import { UpdateWebhookUseCase } from './update-webhook.use-case';
import { WebhookViews } from './webhook-row';

/**
 * Webhooks and their watched names (spec 4.5), always scoped to the owner; their custom headers.
 * Each use case serves its RPC itself (`@RpcHandler` on `execute`, decision 0002): no handler file.
 */
@Module({})
export class ManagementModule {
  /** `core`: the service's shared `WebhooksCoreModule` (DataSource, outbox, config, SecretBox). */
  static register(core: DynamicModule): DynamicModule {
    return {
      module: ManagementModule,
      imports: [core],
      providers: [
        WebhookViews,
        ListWebhooksUseCase,
        GetWebhookUseCase,
        CreateWebhookUseCase,
        UpdateWebhookUseCase,
        DeleteWebhookUseCase,
        SetWebhookStateUseCase,
        GetWebhookHeadersUseCase,
        SetWebhookHeadersUseCase,
      ],
    };
  }
}

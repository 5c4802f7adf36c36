import { CreateWebhookUseCase } from './create-webhook.use-case';
import { CustomHeaders } from './custom-headers';
import { DeleteWebhookUseCase } from './delete-webhook.use-case';
import { GetWebhookHeadersUseCase } from './get-webhook-headers.use-case';
import { GetWebhookUseCase } from './get-webhook.use-case';
import { ListWebhooksUseCase } from './list-webhooks.use-case';
import { SetWebhookHeadersUseCase } from './set-webhook-headers.use-case';
import { SetWebhookStateUseCase } from './set-webhook-state.use-case';
import { UpdateWebhookUseCase } from './update-webhook.use-case';
import { WebhookViews } from './webhook-views';

export { WebhooksHandler } from './webhooks.handler';
export { WebhookHeadersHandler } from './webhook-headers.handler';

export const MANAGEMENT_PROVIDERS = [
  WebhookViews,
  CustomHeaders,
  ListWebhooksUseCase,
  GetWebhookUseCase,
  CreateWebhookUseCase,
  UpdateWebhookUseCase,
  DeleteWebhookUseCase,
  SetWebhookStateUseCase,
  GetWebhookHeadersUseCase,
  SetWebhookHeadersUseCase,
];

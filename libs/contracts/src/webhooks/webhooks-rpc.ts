import { rpc } from '../bus/descriptors';
import { type WebhookLogView, type WebhookView } from './webhooks.views';
import {
  CreateWebhookRpc, ListWebhookLogsRpc, ReplayWebhookRpc, SetWebhookStateRpc, UpdateWebhookRpc, WebhookOwnerRpc, WebhookRefRpc,
} from './webhooks-rpc.dto';

export interface WebhookLogPage {
  items: WebhookLogView[];
  /** Cursor of the next page, when there is one. */
  next?: string;
}

/** `webhooks.<resource>.<verb>`, declared once with both types (style.md rule 2). */
export const WebhooksRpc = {
  List: rpc<WebhookOwnerRpc, WebhookView[]>('webhooks.webhook.list', WebhookOwnerRpc),
  Create: rpc<CreateWebhookRpc, WebhookView>('webhooks.webhook.create', CreateWebhookRpc),
  Get: rpc<WebhookRefRpc, WebhookView>('webhooks.webhook.get', WebhookRefRpc),
  Update: rpc<UpdateWebhookRpc, WebhookView>('webhooks.webhook.update', UpdateWebhookRpc),
  Delete: rpc<WebhookRefRpc, { deleted: true }>('webhooks.webhook.delete', WebhookRefRpc),
  SetState: rpc<SetWebhookStateRpc, WebhookView>('webhooks.webhook.set-state', SetWebhookStateRpc),
  Replay: rpc<ReplayWebhookRpc, { status: number }>('webhooks.delivery.replay', ReplayWebhookRpc),
  ListLogs: rpc<ListWebhookLogsRpc, WebhookLogPage>('webhooks.delivery.list-logs', ListWebhookLogsRpc),
} as const;

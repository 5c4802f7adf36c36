import { rpc } from '@hub/contracts';
import { type WebhookHeadersAnswer } from './webhook-headers.dto';
import { type RecoveryView } from './webhook-recovery.dto';
import { type WebhookDeliveryOptionsView } from './webhook-delivery-options.dto';
import { ListWebhookDeliveriesRpc, type WebhookDeliveryView } from './webhook-deliveries.dto';
import { type WebhookLogView, type WebhookView } from './webhooks.views';
import {
  CreateWebhookRpc,
  GetRecoveryRpc,
  ListWebhookLogsRpc,
  RecoverWebhookRpc,
  SetDeliveryOptionsRpc,
  ReplayWebhookRpc,
  SetWebhookHeadersRpc,
  SetWebhookStateRpc,
  UpdateWebhookRpc,
  WebhookOwnerRpc,
  WebhookRefRpc,
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
  /** A test event to the webhook's URL now, logged as a `test` attempt (decision 0509): GitHub's ping. */
  Test: rpc<WebhookRefRpc, { status: number }>('webhooks.delivery.test', WebhookRefRpc),
  ListLogs: rpc<ListWebhookLogsRpc, WebhookLogPage>('webhooks.delivery.list-logs', ListWebhookLogsRpc),
  /** Deliveries and their retry state (decision 0804): read-only, a sub-resource of the webhook. */
  ListDeliveries: rpc<ListWebhookDeliveriesRpc, WebhookDeliveryView[]>(
    'webhooks.delivery.list',
    ListWebhookDeliveriesRpc,
  ),
  /** Custom headers (decision 0502): sealed at rest, answered as names and hints only. */
  GetHeaders: rpc<WebhookRefRpc, WebhookHeadersAnswer>('webhooks.headers.get', WebhookRefRpc),
  SetHeaders: rpc<SetWebhookHeadersRpc, WebhookHeadersAnswer>('webhooks.headers.set', SetWebhookHeadersRpc),
  /** Bulk recovery (decision 0502): failed deliveries of a window resent once. */
  Recover: rpc<RecoverWebhookRpc, RecoveryView>('webhooks.recovery.start', RecoverWebhookRpc),
  GetRecovery: rpc<GetRecoveryRpc, RecoveryView>('webhooks.recovery.get', GetRecoveryRpc),
  /** Delivery options (decision 0503): pacing and order per webhook, a sub-resource of the webhook. */
  GetDeliveryOptions: rpc<WebhookRefRpc, WebhookDeliveryOptionsView>('webhooks.delivery-options.get', WebhookRefRpc),
  SetDeliveryOptions: rpc<SetDeliveryOptionsRpc, WebhookDeliveryOptionsView>(
    'webhooks.delivery-options.set',
    SetDeliveryOptionsRpc,
  ),
} as const;

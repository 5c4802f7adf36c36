import 'reflect-metadata';
import { runService } from '@hub/observability';
import { WebhooksConfig, WebhooksModule, webhooksPersistence } from '@hub/webhooks-service';

runService({
  name: 'webhooks',
  config: WebhooksConfig,
  module: (config) => WebhooksModule.forRoot(config),
  persistence: webhooksPersistence,
}).catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});

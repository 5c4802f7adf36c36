export interface WebhooksModuleOptions {
  /** Shared secret; defaults to `WEBHOOK_SECRET`. Without one the routes are open (with a warning). */
  secret?: string;
  /** Accepted clock difference for `webhook-timestamp`, and how long delivery ids are remembered. Default 300. */
  toleranceSeconds?: number;
  /** How many delivery ids are remembered for replay protection. Default 10,000. */
  seenIdsCapacity?: number;
}

export const WEBHOOKS_MODULE_OPTIONS = Symbol('WEBHOOKS_MODULE_OPTIONS');
export const WEBHOOK_HANDLER_REGISTRY = Symbol('WEBHOOK_HANDLER_REGISTRY');
export const WEBHOOK_DELIVERY_PIPELINE = Symbol('WEBHOOK_DELIVERY_PIPELINE');

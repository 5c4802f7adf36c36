import { BadRequestError, LimitReachedError, NotFoundError } from '@hub/contracts';

/** Another user's webhook is this too: one answer for "missing" and "not yours". */
export class WebhookNotFoundError extends NotFoundError {
  constructor(id: string) {
    super(`Webhook ${id} not found`, 'WEBHOOK_NOT_FOUND');
  }
}

export class WebhookTargetError extends BadRequestError {
  constructor() {
    super('give exactly one of url, job and jobSourceId', 'WEBHOOK_TARGET');
  }
}

export class WatchedRequiredError extends BadRequestError {
  constructor() {
    super('watched must contain at least 1 item', 'WEBHOOK_WATCHED_REQUIRED');
  }
}

export class DomainsRequiredError extends BadRequestError {
  constructor() {
    super('domains must contain at least 1 item (repo, discussion)', 'WEBHOOK_DOMAINS_REQUIRED');
  }
}

/** A webhook's job runs in its owner's user namespace, which owns no resource groups (decision 0014). */
export class JobResourceGroupError extends BadRequestError {
  constructor(resourceGroupId: string) {
    super(
      `job.resourceGroupId ${resourceGroupId} is not a resource group of your namespace: a webhook's jobs run there`,
      'WEBHOOK_JOB_RESOURCE_GROUP',
    );
  }
}

/** HUB_WEBHOOKS_MAX_PER_USER (decision 0015): a 409 naming the variable. */
export class TooManyWebhooksError extends LimitReachedError {
  constructor(held: number, limit: number) {
    super(`You have ${held} webhooks`, 'HUB_WEBHOOKS_MAX_PER_USER', limit, 'delete one to create another');
  }
}

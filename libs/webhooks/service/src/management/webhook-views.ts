import { Inject, Injectable } from '@nestjs/common';
import { type RequestContext } from '@hub/contracts';
import { type WebhookOwnerRpc, type WebhookView } from '@hub/webhooks-contract';
import { RpcClient } from '@hub/messaging';
import { type WebhooksConfig } from '../webhooks.config';
import { WEBHOOKS_CONFIG } from '../webhooks.di';
import { sourceSpecs } from './source-job';
import { toView, type WebhookRow } from './webhook-row';

/** Rows as answered: a webhook given by jobSourceId answers that job's spec as its `job` too. */
@Injectable()
export class WebhookViews {
  constructor(
    private readonly rpc: RpcClient,
    @Inject(WEBHOOKS_CONFIG) private readonly config: WebhooksConfig,
  ) {}

  async render(rows: WebhookRow[], owner: WebhookOwnerRpc, ctx: RequestContext): Promise<WebhookView[]> {
    const sourceIds = rows.flatMap((r) => (r.job === null && r.job_source_id !== null ? [r.job_source_id] : []));
    const specs = sourceIds.length > 0 ? await sourceSpecs(this.rpc, sourceIds, owner, ctx) : new Map();
    return rows.map((r) =>
      toView(r, this.config.publicUrl, r.job_source_id === null ? undefined : specs.get(r.job_source_id)),
    );
  }
}

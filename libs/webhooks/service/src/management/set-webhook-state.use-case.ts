import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource } from 'typeorm';
import { type RequestContext } from '@hub/contracts';
import { type SetWebhookStateRpc, type WebhookView } from '@hub/webhooks-contract';
import { GetWebhookUseCase } from './get-webhook.use-case';
import { WEBHOOKS_DS } from '../webhooks.di';
import { WebhookStore } from './webhook.store';

/** enable (which also clears a suspension and its failure streak) or disable. */
@Injectable()
export class SetWebhookStateUseCase {
  constructor(
    @InjectDataSource(WEBHOOKS_DS) private readonly ds: DataSource,
    private readonly getWebhook: GetWebhookUseCase,
  ) {}

  async execute(dto: SetWebhookStateRpc, ctx: RequestContext): Promise<WebhookView> {
    await WebhookStore.setDisabled(
      this.ds.manager,
      (await WebhookStore.get(this.ds.manager, dto.ownerId, dto.id)).id,
      dto.action === 'disable',
    );
    return this.getWebhook.execute(dto, ctx);
  }
}

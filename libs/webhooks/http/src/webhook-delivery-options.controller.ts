import { Body, Controller, Get, Param, Put, Req } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { type FastifyRequest } from 'fastify';
import { BadRequestError, type RequestContext } from '@hub/contracts';
import {
  DELIVERY_OPTION_KEYS,
  WebhookDeliveryOptionsBodyDto,
  WebhookDeliveryOptionsView,
  WebhooksRpc,
} from '@hub/webhooks-contract';
import { type AuthInfo } from '@hub/credentials-contract';
import { RpcClient } from '@hub/messaging';
import { ApiErrorResponse, Ctx, CurrentAuth } from '@hub/service-gateway';
import { WebhookIdParam } from './webhook.params';

/**
 * `…/{webhookId}/delivery-options` (issue 27 item 4, decision 0503): a sub-resource, since the
 * webhook object is fixed by the spec. A misspelt option is a 400, not silently off.
 */
@ApiTags('webhooks')
@ApiBearerAuth()
@Controller('api/settings/webhooks')
export class WebhookDeliveryOptionsController {
  constructor(private readonly rpc: RpcClient) {}

  @Get(':webhookId/delivery-options')
  @ApiOperation({ summary: 'Delivery options (our extension): pacing and event order; the defaults until set' })
  @ApiOkResponse({ description: 'The options', type: WebhookDeliveryOptionsView })
  @ApiErrorResponse(404, 'No such webhook of the caller')
  get(
    @Param() p: WebhookIdParam,
    @CurrentAuth() auth: AuthInfo,
    @Ctx() ctx: RequestContext,
  ): Promise<WebhookDeliveryOptionsView> {
    return this.rpc.call(
      WebhooksRpc.GetDeliveryOptions,
      { ownerId: auth.user.id, ownerName: auth.user.name, id: p.webhookId },
      ctx,
    );
  }

  @Put(':webhookId/delivery-options')
  @ApiOperation({
    summary:
      'Replace the delivery options: maxPerSecond paces deliveries (shared by every replica); ordered sends one at a time in event order, a failing delivery blocking the rest until it succeeds or its retries are spent; {} turns both off',
  })
  @ApiBody({ type: WebhookDeliveryOptionsBodyDto })
  @ApiOkResponse({ description: 'The options now in force', type: WebhookDeliveryOptionsView })
  @ApiErrorResponse(400, 'An option out of bounds, of the wrong type, or unknown; the message names it')
  @ApiErrorResponse(403, 'A read token')
  @ApiErrorResponse(404, 'No such webhook of the caller')
  set(
    @Param() p: WebhookIdParam,
    @Body() body: WebhookDeliveryOptionsBodyDto,
    @Req() req: FastifyRequest,
    @CurrentAuth() auth: AuthInfo,
    @Ctx() ctx: RequestContext,
  ): Promise<WebhookDeliveryOptionsView> {
    // The validation pipe drops unknown members; the raw body still has them.
    const unknown = Object.keys(req.body as object).filter(
      (k) => !(DELIVERY_OPTION_KEYS as readonly string[]).includes(k),
    );
    if (unknown.length > 0)
      throw new BadRequestError(
        `unknown delivery option ${unknown.map((k) => JSON.stringify(k)).join(', ')}: the options are ${DELIVERY_OPTION_KEYS.join(', ')}`,
      );
    return this.rpc.call(
      WebhooksRpc.SetDeliveryOptions,
      {
        ownerId: auth.user.id,
        ownerName: auth.user.name,
        id: p.webhookId,
        maxPerSecond: body.maxPerSecond ?? null,
        ordered: body.ordered ?? false,
      },
      ctx,
    );
  }
}

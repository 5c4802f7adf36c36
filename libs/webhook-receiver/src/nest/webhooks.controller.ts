import { All, Controller, Inject, Param, Req, Res } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { HeaderBag } from '../core/receiver.types';
import { WebhookDeliveryPipeline } from '../core/webhook-delivery.pipeline';
import { WEBHOOK_DELIVERY_PIPELINE } from './webhooks-module.options';

/** What both Fastify and Express requests offer; `rawBody` needs `NestFactory.create(…, {rawBody: true})`. */
interface WebhookHttpRequest {
  method: string;
  headers: HeaderBag;
  body?: unknown;
  rawBody?: Buffer;
}

/**
 * HTTP front end of the Nest module. `@All` rather than `@Post` so a wrong method gets the
 * receiver's 405 (with `Allow: POST`) instead of the framework's 404. The rules themselves are
 * the pipeline's, shared with the standalone server.
 */
@Controller('webhooks')
export class WebhooksController {
  constructor(
    @Inject(WEBHOOK_DELIVERY_PIPELINE) private readonly pipeline: WebhookDeliveryPipeline,
    private readonly adapterHost: HttpAdapterHost,
  ) {}

  @All(':name')
  async receive(@Param('name') name: string, @Req() req: WebhookHttpRequest, @Res() res: object): Promise<void> {
    const admission = this.pipeline.admit(name, req.method, req.headers);
    const response = admission.ok
      ? await this.pipeline.deliver(admission.handler, req.headers, { raw: req.rawBody, parsed: req.body })
      : admission.response;
    const adapter = this.adapterHost.httpAdapter;
    for (const [header, value] of Object.entries(response.headers)) adapter.setHeader(res, header, value);
    adapter.reply(res, response.body, response.status);
  }
}

import { Injectable } from '@nestjs/common';
import { type WebhookHeadersAnswer } from '@hub/webhooks-contract';
import { SecretBox } from '@hub/config';
import { type WebhookRow } from './webhook-row';

export interface CustomHeader {
  name: string;
  value: string;
}

/** Custom headers sealed as one JSON list, like the secret; the delivery log sees them redacted. */
@Injectable()
export class CustomHeaders {
  constructor(private readonly box: SecretBox) {}

  seal(list: CustomHeader[]): string | null {
    return list.length === 0 ? null : this.box.seal(JSON.stringify(list));
  }

  open(webhook: Pick<WebhookRow, 'headers_enc'>): CustomHeader[] {
    return webhook.headers_enc ? (JSON.parse(this.box.open(webhook.headers_enc)) as CustomHeader[]) : [];
  }

  /** Names and a hint: enough to tell two tokens apart, never the value. */
  answer(webhook: Pick<WebhookRow, 'headers_enc'>): WebhookHeadersAnswer {
    return {
      headers: this.open(webhook).map((h) => ({ name: h.name, hint: h.value.length >= 16 ? h.value.slice(-4) : '' })),
    };
  }
}

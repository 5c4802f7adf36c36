import { type WebhookHeadersAnswer } from '@hub/webhooks-contract';
import { type SecretBox } from '@hub/config';
import { type WebhookRow } from './webhook-row';

export interface CustomHeader {
  name: string;
  value: string;
}

/**
 * Custom headers sealed as one JSON list, like the secret (the service's `SecretBox`); the
 * delivery log sees them redacted. Plain functions: management seals and shows them, the delivery
 * attempt opens them.
 */
export const CustomHeaders = {
  seal(box: SecretBox, list: CustomHeader[]): string | null {
    return list.length === 0 ? null : box.seal(JSON.stringify(list));
  },

  open(box: SecretBox, webhook: Pick<WebhookRow, 'headers_enc'>): CustomHeader[] {
    return webhook.headers_enc ? (JSON.parse(box.open(webhook.headers_enc)) as CustomHeader[]) : [];
  },

  /** Names and a hint: enough to tell two tokens apart, never the value. */
  answer(box: SecretBox, webhook: Pick<WebhookRow, 'headers_enc'>): WebhookHeadersAnswer {
    return {
      headers: CustomHeaders.open(box, webhook).map((h) => ({
        name: h.name,
        hint: h.value.length >= 16 ? h.value.slice(-4) : '',
      })),
    };
  },
};

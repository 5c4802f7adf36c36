/**
 * Every refusal of the receiver is one of these: a stable code for programs, an HTTP status,
 * and the message that goes out as `{"error": message}`. Both front ends (standalone server and
 * Nest module) turn them into responses the same way.
 */
export type ReceiverErrorCode =
  | 'ROUTE_NOT_FOUND'
  | 'METHOD_NOT_ALLOWED'
  | 'SECRET_HEADER_MISSING'
  | 'SECRET_INVALID'
  | 'SIGNATURE_HEADERS_INCOMPLETE'
  | 'SIGNATURE_TIMESTAMP_INVALID'
  | 'SIGNATURE_TIMESTAMP_OUT_OF_TOLERANCE'
  | 'SIGNATURE_INVALID'
  | 'DELIVERY_IN_PROGRESS'
  | 'BODY_TOO_LARGE'
  | 'BODY_NOT_JSON'
  | 'PAYLOAD_INVALID';

export class WebhookReceiverError extends Error {
  constructor(
    readonly code: ReceiverErrorCode,
    readonly status: number,
    message: string,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
    this.name = 'WebhookReceiverError';
  }
}

/** Thrown at registration time (duplicate or missing handler name), never at request time. */
export class WebhookRegistrationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebhookRegistrationError';
  }
}

export const ReceiverErrors = {
  routeNotFound: (name: string) =>
    new WebhookReceiverError('ROUTE_NOT_FOUND', 404, `No webhook handler named "${name}".`),
  pathNotFound: (path: string) =>
    new WebhookReceiverError(
      'ROUTE_NOT_FOUND',
      404,
      `Nothing at ${path}; webhooks are received at POST /webhooks/<name>.`,
    ),
  methodNotAllowed: (method: string, allow = 'POST') =>
    new WebhookReceiverError('METHOD_NOT_ALLOWED', 405, `Method ${method} not allowed; use ${allow}.`, {
      Allow: allow,
    }),
  // The next two messages are the receiver contract's exact wording (architecture section 6).
  secretHeaderMissing: () => new WebhookReceiverError('SECRET_HEADER_MISSING', 401, 'x-webhook-secret header not set.'),
  secretInvalid: () => new WebhookReceiverError('SECRET_INVALID', 403, 'Invalid webhook secret.'),
  signatureHeadersIncomplete: (missing: string) =>
    new WebhookReceiverError(
      'SIGNATURE_HEADERS_INCOMPLETE',
      401,
      `${missing} header not set (webhook-id, webhook-timestamp and webhook-signature go together).`,
    ),
  signatureTimestampInvalid: () =>
    new WebhookReceiverError('SIGNATURE_TIMESTAMP_INVALID', 401, 'webhook-timestamp must be a Unix time in seconds.'),
  signatureTimestampOutOfTolerance: (toleranceSeconds: number) =>
    new WebhookReceiverError(
      'SIGNATURE_TIMESTAMP_OUT_OF_TOLERANCE',
      401,
      `webhook-timestamp is more than ${toleranceSeconds} seconds away from the receiver's clock.`,
    ),
  signatureInvalid: () =>
    new WebhookReceiverError('SIGNATURE_INVALID', 401, 'No valid v1 signature in webhook-signature.'),
  deliveryInProgress: (webhookId: string) =>
    new WebhookReceiverError(
      'DELIVERY_IN_PROGRESS',
      409,
      `Delivery ${webhookId} is still being handled; retry later.`,
      {
        'Retry-After': '5',
      },
    ),
  bodyTooLarge: (limit: number) =>
    new WebhookReceiverError('BODY_TOO_LARGE', 413, `Request body is larger than ${limit} bytes.`),
  bodyNotJson: (reason: string) =>
    new WebhookReceiverError('BODY_NOT_JSON', 400, `Request body is not valid JSON: ${reason}`),
  payloadInvalid: (problem: string) => new WebhookReceiverError('PAYLOAD_INVALID', 400, problem),
} as const;

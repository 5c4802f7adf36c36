import { ApiProperty } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayUnique, IsArray, IsString, Length, Matches, ValidateNested } from 'class-validator';
import { ClosedSchema } from '@hub/contracts';

export const MAX_CUSTOM_HEADERS = 20;
export const MAX_HEADER_VALUE = 1024;

/**
 * Names a webhook may not set (decision 0502): hop-by-hop and framing headers (the sender owns the
 * connection and the body), and the headers that authenticate a delivery (the receiver must be able
 * to trust them): the secret, Standard Webhooks' `webhook-*` and the trace context.
 */
export const RESERVED_HEADERS = [
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'host',
  'content-length',
  'content-type',
  'content-encoding',
  'expect',
  'user-agent',
  'x-webhook-secret',
  'traceparent',
  'tracestate',
] as const;

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,64}$/;
const NOT_RESERVED = new RegExp(`^(?!(${RESERVED_HEADERS.join('|')})$)(?!webhook-)`, 'i');

export class WebhookHeaderDto {
  @ApiProperty({
    example: 'Authorization',
    description:
      'an HTTP token of at most 64 characters; not hop-by-hop, framing, signature (webhook-*, x-webhook-secret) or trace headers',
  })
  @IsString({ message: 'headers[].name must be a string' })
  @Matches(TOKEN, {
    message: "headers[].name must be an HTTP header name (letters, digits and !#$%&'*+.^_`|~-, at most 64)",
  })
  @Matches(NOT_RESERVED, {
    message: (a) => `headers[].name ${String(a.value)} is reserved (hop-by-hop, framing, signature or trace header)`,
  })
  name!: string;

  @ApiProperty({
    example: 'Bearer abc123',
    description: `visible characters, spaces and tabs; at most ${MAX_HEADER_VALUE}`,
  })
  @IsString({ message: 'headers[].value must be a string' })
  @Length(1, MAX_HEADER_VALUE, { message: `headers[].value must be 1..${MAX_HEADER_VALUE} characters` })
  @Matches(/^[\t\x20-\x7e]+$/, {
    message: 'headers[].value must hold visible ASCII characters, spaces and tabs only (no line breaks)',
  })
  value!: string;
}

/** `PUT …/{webhookId}/headers`: the whole set, replacing the current one; `[]` removes them all. */
export class WebhookHeadersBodyDto {
  @ApiProperty({ type: [WebhookHeaderDto] })
  // class-validator checks the decorator nearest the property first (stopAtFirstError): IsArray goes last.
  @ValidateNested({ each: true })
  @Type(() => WebhookHeaderDto)
  @ArrayUnique((h: WebhookHeaderDto) => (typeof h?.name === 'string' ? h.name.toLowerCase() : h), {
    message: 'headers[].name must be unique (case-insensitive)',
  })
  @ArrayMaxSize(MAX_CUSTOM_HEADERS, { message: `headers must hold at most ${MAX_CUSTOM_HEADERS} items` })
  @IsArray({ message: 'headers must be an array' })
  headers!: WebhookHeaderDto[];
}

@ClosedSchema()
export class WebhookHeaderView {
  @ApiProperty() name!: string;
  @ApiProperty({ description: 'never the value: its last 4 characters when it has 16 or more, else empty' })
  hint!: string;
}

@ClosedSchema()
export class WebhookHeadersAnswer {
  @ApiProperty({ type: [WebhookHeaderView] }) headers!: WebhookHeaderView[];
}

import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsNumber, IsOptional, Max, Min } from 'class-validator';
import { ClosedSchema } from '@hub/contracts';

export const MIN_PER_SECOND = 0.01;
export const MAX_PER_SECOND = 1000;
export const DELIVERY_OPTION_KEYS = ['maxPerSecond', 'ordered'] as const;

/**
 * `PUT …/{webhookId}/delivery-options` (issue 27 item 4, decision 0503): the whole set, replacing
 * the current one; what is left out (or null) is off, so `{}` removes every option.
 */
export class WebhookDeliveryOptionsBodyDto {
  @ApiPropertyOptional({
    type: Number,
    nullable: true,
    minimum: MIN_PER_SECOND,
    maximum: MAX_PER_SECOND,
    example: 5,
    description: `at most this many deliveries a second to this webhook, shared by every replica (${MIN_PER_SECOND}..${MAX_PER_SECOND}, two decimals); null or absent: not paced`,
  })
  @IsOptional()
  @Max(MAX_PER_SECOND, { message: `maxPerSecond must be at most ${MAX_PER_SECOND}` })
  @Min(MIN_PER_SECOND, { message: `maxPerSecond must be at least ${MIN_PER_SECOND}` })
  @IsNumber(
    { allowNaN: false, allowInfinity: false, maxDecimalPlaces: 2 },
    { message: 'maxPerSecond must be a number with at most two decimals' },
  )
  maxPerSecond?: number | null;

  @ApiPropertyOptional({
    default: false,
    description:
      'one delivery at a time, in event order: a failing delivery blocks the ones after it until it succeeds or is given up (retries spent)',
  })
  @IsOptional()
  @IsBoolean({ message: 'ordered must be true or false' })
  ordered?: boolean | null;
}

@ClosedSchema()
export class WebhookDeliveryOptionsView {
  @ApiProperty({ type: Number, nullable: true, description: 'deliveries a second at most; null: not paced' })
  maxPerSecond!: number | null;
  @ApiProperty({ description: 'one at a time, in event order' })
  ordered!: boolean;
}

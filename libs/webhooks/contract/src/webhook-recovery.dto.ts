import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsISO8601, IsOptional } from 'class-validator';
import { ClosedSchema } from '@hub/contracts';

/** At most this many deliveries per recovery; the answer's `queued` says how many were taken. */
export const MAX_RECOVERY_DELIVERIES = 100_000;

/** `POST …/{webhookId}/recover`: resend once every delivery that failed in [since, until). */
export class RecoverBodyDto {
  @ApiProperty({ format: 'date-time', description: 'deliveries with a failed attempt at or after this time' })
  @IsISO8601({ strict: true }, { message: 'since must be an ISO 8601 date-time' })
  since!: string;

  @ApiPropertyOptional({ format: 'date-time', description: 'and before this time (default: now)' })
  @IsOptional()
  @IsISO8601({ strict: true }, { message: 'until must be an ISO 8601 date-time' })
  until?: string;
}

export const RECOVERY_STATES = ['running', 'done'] as const;

@ClosedSchema()
export class RecoveryView {
  @ApiProperty() id!: string;
  @ApiProperty({ enum: RECOVERY_STATES }) state!: (typeof RECOVERY_STATES)[number];
  @ApiProperty({ format: 'date-time' }) since!: string;
  @ApiProperty({ format: 'date-time' }) until!: string;
  @ApiProperty({
    description: `failed deliveries put back in the queue (at most ${MAX_RECOVERY_DELIVERIES}, and at most what HUB_WEBHOOK_MAX_TRIGGERS_PER_DAY leaves of the last 24 hours)`,
  })
  queued!: number;
  @ApiProperty({ description: 'resent so far' }) sent!: number;
  @ApiProperty() succeeded!: number;
  @ApiProperty({ description: 'failed again (not retried), or dropped because the webhook was disabled meanwhile' })
  failed!: number;
  @ApiProperty({
    description:
      'failed deliveries of the window left out: a recovery resent them within HUB_WEBHOOK_RECOVERY_COOLDOWN_SECONDS and they failed again',
  })
  skipped!: number;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiPropertyOptional({ format: 'date-time' }) finishedAt?: string;
}

import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { WebhookLogFilterDto } from '@hub/webhooks-contract';

export class WebhookIdParam {
  @ApiProperty()
  @IsString()
  @MaxLength(64, { message: 'webhookId is too long' })
  webhookId!: string;
}

export class WebhookActionParam extends WebhookIdParam {
  @ApiProperty({ enum: ['enable', 'disable'] })
  @IsIn(['enable', 'disable'], { message: 'action must be enable or disable' })
  action!: 'enable' | 'disable';
}

export class WebhookLogParam extends WebhookIdParam {
  @ApiProperty()
  @IsString()
  @MaxLength(64, { message: 'logId is too long' })
  logId!: string;
}

/** Paging plus the search filters (decision 0502). */
export class WebhookRecoveryParam extends WebhookIdParam {
  @ApiProperty()
  @IsString()
  @MaxLength(64, { message: 'recoveryId is too long' })
  recoveryId!: string;
}

export class WebhookLogsQuery extends WebhookLogFilterDto {
  @ApiPropertyOptional({ minimum: 1, maximum: 100, default: 20 })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'limit must be an integer 1..100' })
  @Min(1, { message: 'limit must be an integer 1..100' })
  @Max(100, { message: 'limit must be an integer 1..100' })
  limit?: number;

  @ApiPropertyOptional({ description: 'from the Link header of the previous page' })
  @IsOptional()
  @IsString()
  @MaxLength(64, { message: 'cursor is too long' })
  cursor?: string;
}

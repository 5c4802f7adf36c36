import { Type } from 'class-transformer';
import {
  IsArray,
  IsBoolean,
  IsNumber,
  IsIn,
  IsInt,
  IsISO8601,
  IsOptional,
  IsString,
  Matches,
  Max,
  Min,
  ValidateNested,
} from 'class-validator';
import { NAME_PATTERN, OBJECT_ID_PATTERN } from '@hub/contracts';
import { WebhookBodyDto } from './webhook-body.dto';
import { MAX_PER_SECOND, MIN_PER_SECOND } from './webhook-delivery-options.dto';
import { WebhookHeaderDto } from './webhook-headers.dto';
import { WebhookLogFilterDto } from './webhook-log-filter.dto';

/** Every webhooks RPC names the caller: a user sees and touches only their own webhooks. */
export class WebhookOwnerRpc {
  @Matches(OBJECT_ID_PATTERN)
  ownerId!: string;

  /** The owner's user name: the namespace job webhooks start their jobs in. */
  @Matches(NAME_PATTERN)
  ownerName!: string;
}

export class WebhookRefRpc extends WebhookOwnerRpc {
  /** Any string: an id that is not ours is a 404, like a missing one. */
  @IsString()
  id!: string;
}

export class CreateWebhookRpc extends WebhookOwnerRpc {
  @ValidateNested()
  @Type(() => WebhookBodyDto)
  body!: WebhookBodyDto;
}

export class UpdateWebhookRpc extends WebhookRefRpc {
  @ValidateNested()
  @Type(() => WebhookBodyDto)
  body!: WebhookBodyDto;
}

export class SetWebhookStateRpc extends WebhookRefRpc {
  @IsIn(['enable', 'disable'])
  action!: 'enable' | 'disable';
}

export class ReplayWebhookRpc extends WebhookRefRpc {
  @IsString()
  logId!: string;
}

export class ListWebhookLogsRpc extends WebhookRefRpc {
  /** The id of the last log of the previous page (newest first). */
  @IsOptional()
  @IsString()
  cursor?: string;

  @IsInt()
  @Min(1)
  @Max(100)
  limit!: number;

  @IsOptional()
  @ValidateNested()
  @Type(() => WebhookLogFilterDto)
  filter?: WebhookLogFilterDto;
}

export class SetWebhookHeadersRpc extends WebhookRefRpc {
  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => WebhookHeaderDto)
  headers!: WebhookHeaderDto[];
}

export class RecoverWebhookRpc extends WebhookRefRpc {
  @IsISO8601({ strict: true })
  since!: string;

  @IsOptional()
  @IsISO8601({ strict: true })
  until?: string;
}

export class GetRecoveryRpc extends WebhookRefRpc {
  @IsString()
  recoveryId!: string;
}

export class SetDeliveryOptionsRpc extends WebhookRefRpc {
  @IsOptional()
  @IsNumber({ allowNaN: false, allowInfinity: false, maxDecimalPlaces: 2 })
  @Min(MIN_PER_SECOND)
  @Max(MAX_PER_SECOND)
  maxPerSecond?: number | null;

  @IsOptional()
  @IsBoolean()
  ordered?: boolean | null;
}

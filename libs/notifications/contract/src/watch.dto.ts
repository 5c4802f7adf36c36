import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsIn, IsOptional, IsString, Length, ValidateNested } from 'class-validator';
import { WATCH_ITEM_TYPES, type WatchItemType } from '@hub/contracts';

export const MAX_WATCH_CHANGES = 100;
/** A user watches at most this many items (bounded fan-out per event). */
export const MAX_WATCHED_ITEMS = 1000;

export class WatchItem {
  @ApiProperty({ description: 'user or organization name (or id); repository owner/name (or id)', maxLength: 200 })
  @IsString({ message: 'id must be a string' })
  @Length(1, 200, { message: 'id must be 1 to 200 characters' })
  id!: string;

  @ApiProperty({ enum: WATCH_ITEM_TYPES })
  @IsIn(WATCH_ITEM_TYPES, { message: `type must be one of ${WATCH_ITEM_TYPES.join(', ')}` })
  type!: WatchItemType;
}

/** PATCH /api/settings/watch body. */
export class UpdateWatchDto {
  @ApiPropertyOptional({ type: [WatchItem], default: [], maxItems: MAX_WATCH_CHANGES })
  @IsOptional()
  @IsArray({ message: 'add must be an array' })
  @ArrayMaxSize(MAX_WATCH_CHANGES, { message: `add must hold at most ${MAX_WATCH_CHANGES} items` })
  @ValidateNested({ each: true })
  @Type(() => WatchItem)
  add?: WatchItem[];

  @ApiPropertyOptional({ type: [WatchItem], default: [], maxItems: MAX_WATCH_CHANGES })
  @IsOptional()
  @IsArray({ message: 'delete must be an array' })
  @ArrayMaxSize(MAX_WATCH_CHANGES, { message: `delete must hold at most ${MAX_WATCH_CHANGES} items` })
  @ValidateNested({ each: true })
  @Type(() => WatchItem)
  delete?: WatchItem[];
}

export class WatchListView {
  @ApiProperty({ type: [WatchItem] })
  watched!: WatchItem[];
}

/** RPC requests that carry nothing but the caller's context. */
export class OwnSettingsRpc {}

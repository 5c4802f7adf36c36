import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsString,
  IsOptional,
  Length,
  Matches,
  ValidateNested,
} from 'class-validator';
import { event, OBJECT_ID_PATTERN } from '@hub/contracts';

export const PAPER_ID_PATTERN = /^\d{4}\.\d{4,5}$/;
const ANY_CASE_ID = /^[0-9a-fA-F]{24}$/;
/** Ids are accepted in either case and kept in lower case. */
const lower = ({ value }: { value: unknown }): unknown => (typeof value === 'string' ? value.toLowerCase() : value);

export class PaperAuthorDto {
  @ApiPropertyOptional({ pattern: ANY_CASE_ID.source, description: 'kept when given, else made up' })
  @IsOptional()
  @Transform(lower)
  @Matches(OBJECT_ID_PATTERN, { message: '_id must be a 24-character hexadecimal id' })
  _id?: string;

  @ApiProperty({ maxLength: 200 })
  @Length(1, 200, { message: 'each author name must be 1..200 characters long' })
  @IsString({ message: 'each author name must be a string' })
  name!: string;
}

/** `POST /admin/papers` and `hub.events.paper.*`: a paper with its author entries. */
export class AdminCreatePaperDto {
  @ApiProperty({ pattern: PAPER_ID_PATTERN.source })
  @Matches(PAPER_ID_PATTERN, { message: 'id must look like 2401.01234' })
  @IsString({ message: 'id must be a string' })
  id!: string;

  @ApiProperty({ maxLength: 500 })
  @Length(1, 500, { message: 'title must be 1..500 characters long' })
  @IsString({ message: 'title must be a string' })
  title!: string;

  @ApiProperty({ type: [PaperAuthorDto], minItems: 1, maxItems: 1000 })
  @ArrayMinSize(1, { message: 'authors must list at least one author' })
  @ArrayMaxSize(1000, { message: 'authors must list at most 1000 authors' })
  @ValidateNested({ each: true })
  @Type(() => PaperAuthorDto)
  @IsArray({ message: 'authors must be a list' })
  authors!: PaperAuthorDto[];
}

/**
 * `hub.events.paper.create`: a paper with its author entries (as `POST /admin/papers`), what the
 * organizations service's paper catalogue reads. Activity on a paper (`hub.events.paper.comment`)
 * is another subject with another payload, read by notifications.
 */
export class PaperRecordEventPayload {
  @ValidateNested()
  @Type(() => AdminCreatePaperDto)
  paper!: AdminCreatePaperDto;
}

export const PaperEvents = {
  Create: event<PaperRecordEventPayload>('hub.events.paper.create', PaperRecordEventPayload),
} as const;

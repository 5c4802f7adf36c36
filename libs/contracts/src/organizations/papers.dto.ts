import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsOptional,
  IsString,
  Length,
  Matches,
  ValidateNested,
} from 'class-validator';
import { ClosedSchema } from '../http/closed-schema';
import { NAME_PATTERN, OBJECT_ID_PATTERN } from '../names';

export const PAPER_ID_PATTERN = /^\d{4}\.\d{4,5}$/;
const ANY_CASE_ID = /^[0-9a-fA-F]{24}$/;
/** Ids are accepted in either case and kept in lower case. */
const lower = ({ value }: { value: unknown }): unknown => (typeof value === 'string' ? value.toLowerCase() : value);

/** `POST /api/settings/papers/claim` (spec 4.3). */
export class ClaimPaperDto {
  @ApiProperty({ pattern: PAPER_ID_PATTERN.source, example: '2401.01234' })
  @Matches(PAPER_ID_PATTERN, { message: 'paperId must look like 2401.01234' })
  @IsString({ message: 'paperId must be a string' })
  paperId!: string;

  @ApiProperty({ pattern: ANY_CASE_ID.source, description: 'the author entry of the paper to claim' })
  @Transform(lower)
  @Matches(OBJECT_ID_PATTERN, { message: 'claimAuthorId must be a 24-character hexadecimal id' })
  @IsString({ message: 'claimAuthorId must be a string' })
  claimAuthorId!: string;

  @ApiPropertyOptional({
    pattern: ANY_CASE_ID.source,
    description: 'the user who receives the claim (the caller when left out)',
  })
  @IsOptional()
  @Transform(lower)
  @Matches(OBJECT_ID_PATTERN, { message: 'targetUserId must be a 24-character hexadecimal id' })
  @IsString({ message: 'targetUserId must be a string' })
  targetUserId?: string;
}

@ClosedSchema()
export class ClaimPaperView {
  @ApiProperty() ok!: boolean;
  @ApiProperty() claimedPaperId!: string;
}

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

export class PaperAuthorView {
  @ApiProperty({ pattern: OBJECT_ID_PATTERN.source }) _id!: string;
  @ApiProperty() name!: string;
  @ApiPropertyOptional({ description: 'user name of whoever claimed this entry' }) claimedBy?: string;
}

@ClosedSchema()
export class PaperView {
  @ApiProperty() id!: string;
  @ApiProperty() title!: string;
  @ApiProperty({ type: [PaperAuthorView] }) authors!: PaperAuthorView[];
}

export class ClaimPaperRpc extends ClaimPaperDto {
  /** The caller. */
  @Matches(OBJECT_ID_PATTERN) userId!: string;
  @Matches(NAME_PATTERN) userName!: string;
}

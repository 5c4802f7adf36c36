import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  IsIn,
  IsInt,
  IsISO8601,
  IsOptional,
  IsString,
  Length,
  Matches,
  Max,
  Min,
  ValidateNested,
} from 'class-validator';
import {
  REPO_TYPES,
  REPO_USAGE_SORTS,
  REPO_VISIBILITIES,
  type RepoType,
  type RepoVisibility,
  SORT_DIRECTIONS,
  ClosedSchema,
  NAME_PATTERN,
  REPO_ID_PATTERN,
  rpc,
} from '@hub/contracts';

export type RepoUsageSort = (typeof REPO_USAGE_SORTS)[number];
export type SortDirection = (typeof SORT_DIRECTIONS)[number];

/** A page holds at most this many entries; `limit` asks for fewer. */
export const REPO_USAGE_MAX_PAGE = 1000;
export const REPO_USAGE_DEFAULT_PAGE = 100;

/** Query of both repository usage listings (spec 4.3); `cursor` comes from the `Link: rel="next"` header. */
export class RepoUsageQueryDto {
  @ApiPropertyOptional({ description: 'case-insensitive substring of the repository name', maxLength: 200 })
  @IsOptional()
  @Length(1, 200, { message: 'search must be 1..200 characters long' })
  @IsString({ message: 'search must be a string' })
  search?: string;

  @ApiPropertyOptional({ enum: REPO_TYPES })
  @IsOptional()
  @IsIn(REPO_TYPES, { message: `type must be one of ${REPO_TYPES.join(', ')}` })
  type?: RepoType;

  @ApiPropertyOptional({
    minimum: 1,
    maximum: REPO_USAGE_MAX_PAGE,
    default: REPO_USAGE_DEFAULT_PAGE,
    description: 'entries per page',
  })
  @IsOptional()
  @Type(() => Number)
  @Max(REPO_USAGE_MAX_PAGE, { message: `limit must be at most ${REPO_USAGE_MAX_PAGE}` })
  @Min(1, { message: 'limit must be at least 1' })
  @IsInt({ message: 'limit must be an integer' })
  limit?: number;

  @ApiPropertyOptional({ enum: REPO_USAGE_SORTS, default: 'storage' })
  @IsOptional()
  @IsIn(REPO_USAGE_SORTS, { message: `sort must be one of ${REPO_USAGE_SORTS.join(', ')}` })
  sort?: RepoUsageSort;

  @ApiPropertyOptional({ enum: SORT_DIRECTIONS, default: 'desc' })
  @IsOptional()
  @IsIn(SORT_DIRECTIONS, { message: `direction must be one of ${SORT_DIRECTIONS.join(', ')}` })
  direction?: SortDirection;

  @ApiPropertyOptional({ description: 'where the next page starts (from the Link header)', pattern: '^\\d{1,9}$' })
  @IsOptional()
  @Matches(/^\d{1,9}$/, { message: 'cursor must be the one given in the Link header' })
  @IsString({ message: 'cursor must be a string' })
  cursor?: string;
}

/** A repository as the catalogue keeps it: added by the admin API or by `hub.events.repo.*`. */
export class UpsertRepositoryRpc {
  @Matches(REPO_ID_PATTERN)
  @IsString()
  name!: string;

  @IsIn(REPO_TYPES)
  type!: RepoType;

  /** Left as it is when not given; a new repository without one is public. */
  @IsOptional()
  @IsIn(REPO_VISIBILITIES)
  visibility?: RepoVisibility;

  /** Bytes; left as it is when not given (a settings change carries no size). */
  @IsOptional()
  @IsInt()
  @Min(0)
  storage?: number;

  @IsOptional()
  @IsISO8601()
  updatedAt?: string;
}

export class ListRepositoriesRpc {
  /** A user or organization name: the owner part of the repository ids. */
  @Matches(NAME_PATTERN)
  @IsString()
  owner!: string;

  @ValidateNested()
  @Type(() => RepoUsageQueryDto)
  query!: RepoUsageQueryDto;
}

/** Spec 2.7: exactly these fields. */
@ClosedSchema()
export class RepoUsageView {
  @ApiProperty({ description: 'owner/name', example: 'acme/bert-small' })
  id!: string;

  @ApiProperty({ enum: REPO_TYPES })
  type!: RepoType;

  @ApiProperty({ format: 'date-time' })
  updatedAt!: string;

  @ApiProperty({ enum: REPO_VISIBILITIES })
  visibility!: RepoVisibility;

  @ApiProperty({ description: 'bytes' })
  storage!: number;

  @ApiProperty({ description: "the repository's share of its owner's total storage, in percent (0..100)" })
  storagePercent!: number;
}

export interface RepoUsagePage {
  items: RepoUsageView[];
  /** The cursor of the next page, when there is one. */
  next?: string;
}

/** The repository catalogue kept by organizations (storage usage listings). */
export const RepositoriesRpc = {
  Upsert: rpc<UpsertRepositoryRpc, RepoUsageView>('organizations.repository.upsert', UpsertRepositoryRpc),
  List: rpc<ListRepositoriesRpc, RepoUsagePage>('organizations.repository.list', ListRepositoriesRpc),
} as const;

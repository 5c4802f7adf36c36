import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Length, Matches, Max, Min } from 'class-validator';
import { NAME_PATTERN, OBJECT_ID_PATTERN } from '../names';

/** The admin lists (users, a user's tokens, organizations): at most this many a page; `limit` asks for fewer. */
export const ADMIN_LIST_MAX_PAGE = 100;
export const ADMIN_LIST_DEFAULT_PAGE = 50;
const CURSOR_MESSAGE = 'cursor must be the one given in the Link header';

/** What every admin list takes: a page size and a case-insensitive substring filter. */
export class AdminListQueryDto {
  @ApiPropertyOptional({ description: 'case-insensitive substring to look for', minLength: 1, maxLength: 100 })
  @IsOptional()
  @Length(1, 100, { message: 'search must be 1..100 characters long' })
  @IsString({ message: 'search must be a string' })
  search?: string;

  @ApiPropertyOptional({
    minimum: 1,
    maximum: ADMIN_LIST_MAX_PAGE,
    default: ADMIN_LIST_DEFAULT_PAGE,
    description: 'entries per page',
  })
  @IsOptional()
  @Type(() => Number)
  @Max(ADMIN_LIST_MAX_PAGE, { message: `limit must be at most ${ADMIN_LIST_MAX_PAGE}` })
  @Min(1, { message: 'limit must be at least 1' })
  @IsInt({ message: 'limit must be an integer' })
  limit?: number;
}

/** Users and organizations, by name: the cursor is the last name of the page before (from the Link header). */
export class AdminNamesQueryDto extends AdminListQueryDto {
  @ApiPropertyOptional({ description: 'where the next page starts (from the Link header)' })
  @IsOptional()
  @Matches(NAME_PATTERN, { message: CURSOR_MESSAGE })
  @IsString({ message: CURSOR_MESSAGE })
  cursor?: string;
}

/** A user's tokens, newest first: the cursor is the last token id of the page before (from the Link header). */
export class AdminTokensQueryDto extends AdminListQueryDto {
  @ApiPropertyOptional({ description: 'where the next page starts (from the Link header)' })
  @IsOptional()
  @Matches(OBJECT_ID_PATTERN, { message: CURSOR_MESSAGE })
  @IsString({ message: CURSOR_MESSAGE })
  cursor?: string;
}

/** `credentials.token.list`: the user whose tokens to list, and the page asked for. */
export class AdminListTokensRpc extends AdminTokensQueryDto {
  @Matches(NAME_PATTERN, { message: 'user is not a valid user name' })
  @IsString()
  user!: string;
}

/** One page of an admin list, and the cursor of the next when there is one (the gateway makes it a Link header). */
export interface AdminPage<T> {
  items: T[];
  next?: string;
}

/**
 * A page from `limit + 1` rows read in order: the extra row only says another page follows, whose
 * cursor is the key of the page's last row.
 */
export function adminPage<T>(rows: T[], limit: number, keyOf: (row: T) => string): AdminPage<T> {
  if (rows.length <= limit) return { items: rows };
  const items = rows.slice(0, limit);
  return { items, next: keyOf(items[items.length - 1] as T) };
}

/** The page size asked for, or the default. */
export const adminPageSize = (q: AdminListQueryDto): number => q.limit ?? ADMIN_LIST_DEFAULT_PAGE;

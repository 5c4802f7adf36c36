import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsArray, IsIn, IsInt, IsOptional, IsString, Length, Matches, Max, Min, ValidateNested } from 'class-validator';
import {
  type TailedReply,
  AUDIT_EVENT_TYPES,
  AUTHOR_TYPES,
  type AuditEventType,
  BadRequestError,
  OBJECT_ID_PATTERN,
  rpc,
} from '@hub/contracts';

/** The export holds at most the newest this many events (spec 4.4). */
export const AUDIT_EXPORT_MAX = 100_000;
export const AUDIT_QUERY_FIELDS = ['author', 'ip', 'type'] as const;

/** `q` of the export, parsed: every term must hold (AND). */
export class AuditFilter {
  @IsOptional()
  @IsArray()
  @IsString({ each: true })
  author?: string[];

  @IsOptional()
  @IsArray()
  @IsString({ each: true })
  ip?: string[];

  @IsOptional()
  @IsArray()
  @IsIn(AUDIT_EVENT_TYPES, { each: true })
  type?: AuditEventType[];
}

/**
 * Parses `author:<user> ip:<address> type:<event type>` (terms separated by spaces, all must
 * hold). A term without `field:value`, an unknown field or an unknown event type is a 400 naming it.
 */
export function parseAuditQuery(q: string | undefined): AuditFilter {
  const filter: AuditFilter = {};
  for (const term of (q ?? '').trim().split(/\s+/).filter(Boolean)) {
    const colon = term.indexOf(':');
    if (colon <= 0 || colon === term.length - 1) {
      throw new BadRequestError(`q: "${term}" is not a field:value term (fields: ${AUDIT_QUERY_FIELDS.join(', ')})`);
    }
    const field = term.slice(0, colon);
    const value = term.slice(colon + 1);
    if (!(AUDIT_QUERY_FIELDS as readonly string[]).includes(field)) {
      throw new BadRequestError(`q: unknown field "${field}" (fields: ${AUDIT_QUERY_FIELDS.join(', ')})`);
    }
    if (field === 'type' && !(AUDIT_EVENT_TYPES as readonly string[]).includes(value)) {
      throw new BadRequestError(`q: "${value}" is not an audit event type`);
    }
    const key = field as (typeof AUDIT_QUERY_FIELDS)[number];
    (filter[key] as string[] | undefined) = [...(filter[key] ?? []), value];
  }
  return filter;
}

export class AuditExportQueryDto {
  @ApiPropertyOptional({
    description: 'terms author:<user>, ip:<address>, type:<event type>, separated by spaces; all must hold',
    maxLength: 1000,
  })
  @IsOptional()
  @Length(0, 1000, { message: 'q must be at most 1000 characters long' })
  @IsString({ message: 'q must be a string' })
  q?: string;
}

/** Where the next page of the export starts: after this event (newest first). */
/** The console's audit log list (decision 0423): at most this many events a page. */
export const AUDIT_EVENTS_MAX_PAGE = 100;
const AUDIT_CURSOR = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,6})?Z)~([0-9a-f]{24})$/;
const AUDIT_CURSOR_MESSAGE = 'cursor must be the one given in the Link header';

/** `GET …/audit-log/events`: the export's filter, a page size, and where the page starts. */
export class AuditEventsQueryDto extends AuditExportQueryDto {
  @ApiPropertyOptional({ minimum: 1, maximum: AUDIT_EVENTS_MAX_PAGE, default: 50, description: 'events per page' })
  @IsOptional()
  @Type(() => Number)
  @Max(AUDIT_EVENTS_MAX_PAGE, { message: `limit must be at most ${AUDIT_EVENTS_MAX_PAGE}` })
  @Min(1, { message: 'limit must be at least 1' })
  @IsInt({ message: 'limit must be an integer' })
  limit?: number;

  @ApiPropertyOptional({ description: 'where the next page starts (from the Link header)' })
  @IsOptional()
  @Matches(AUDIT_CURSOR, { message: AUDIT_CURSOR_MESSAGE })
  @IsString({ message: AUDIT_CURSOR_MESSAGE })
  cursor?: string;
}

/** A page's cursor as the Link header carries it, and back. */
export const auditCursorText = (c: { createdAt: string; id: string }): string => `${c.createdAt}~${c.id}`;
export function parseAuditCursor(text: string): { createdAt: string; id: string } {
  const m = AUDIT_CURSOR.exec(text);
  if (!m) throw new Error(AUDIT_CURSOR_MESSAGE);
  return { createdAt: m[1], id: m[2] };
}

export class AuditCursor {
  @IsString()
  createdAt!: string;

  @Matches(OBJECT_ID_PATTERN)
  id!: string;
}

export class AuditPageRpc {
  @Matches(OBJECT_ID_PATTERN)
  organizationId!: string;

  @ValidateNested()
  @Type(() => AuditFilter)
  filter!: AuditFilter;

  @IsOptional()
  @ValidateNested()
  @Type(() => AuditCursor)
  after?: AuditCursor;

  @IsInt()
  @Min(1)
  @Max(5000)
  limit!: number;
}

/** What comes before a page's events: how many there are, and where the next page starts (absent on the last page). */
export interface AuditPageHead {
  count: number;
  last?: AuditCursor;
}

/** One page of the export: its head, and the events as stored JSON texts joined by commas as the tail (never parsed on the way). */
export type AuditPage = TailedReply<AuditPageHead>;

class AuditLocationView {
  @ApiProperty() formatted!: string;
  @ApiPropertyOptional() country?: string;
  @ApiPropertyOptional() city?: string;
}

class AuditAuthorView {
  @ApiProperty({ pattern: OBJECT_ID_PATTERN.source }) _id!: string;
  @ApiProperty() user!: string;
  @ApiProperty() avatarUrl!: string;
  @ApiProperty({ enum: AUTHOR_TYPES }) type!: (typeof AUTHOR_TYPES)[number];
  @ApiPropertyOptional() deleted?: boolean;
}

class AuditTokenView {
  @ApiProperty({ enum: ['access_token'] }) type!: 'access_token';
  @ApiProperty() id!: string;
  @ApiPropertyOptional({ enum: ['read', 'write', 'fineGrained'] }) role?: string;
  @ApiPropertyOptional() last4?: string;
  @ApiProperty() deleted!: boolean;
}

class AuditOauthView {
  @ApiProperty() clientId!: string;
  @ApiPropertyOptional() name?: string;
}

/** Spec 2.9. */
export class AuditLogEventView {
  @ApiProperty({ pattern: OBJECT_ID_PATTERN.source }) _id!: string;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiProperty({ enum: AUDIT_EVENT_TYPES }) type!: AuditEventType;
  @ApiPropertyOptional({ description: 'any JSON value' }) data?: unknown;
  @ApiProperty() message!: string;
  @ApiPropertyOptional() ip?: string;
  @ApiPropertyOptional({ type: AuditLocationView }) location?: AuditLocationView;
  @ApiPropertyOptional() userAgent?: string;
  @ApiProperty({ type: AuditAuthorView }) author!: AuditAuthorView;
  @ApiPropertyOptional({ type: AuditTokenView }) token?: AuditTokenView;
  @ApiPropertyOptional({ type: AuditOauthView }) oauth?: AuditOauthView;
}

/** The audit log organizations keeps from `hub.audit.>`, read a page at a time (the export streams them). */
export const AuditRpc = {
  Page: rpc<AuditPageRpc, AuditPage>('organizations.audit.page', AuditPageRpc),
} as const;

import {
  AUDIT_STREAM_FIELDS,
  AUDIT_STREAM_OPTIONAL,
  type AuditStreamBodyDto,
  type AuditStreamType,
} from '@hub/organizations-contract';
import { AuditStreamFieldError } from './audit-streams.errors';

/** Where a stream sends, split into what may be shown (settings) and what is sealed (credentials). */
export interface Destination {
  type: AuditStreamType;
  settings: Record<string, string>;
  credentials: Record<string, string>;
  filter: string[] | null;
}

const ALL_FIELDS = [...new Set(Object.values(AUDIT_STREAM_FIELDS).flatMap((f) => [...f.settings, ...f.credentials]))];

/** The last four characters, so an admin can tell which key is set without anyone reading it back. */
export function hintOf(value: string): string {
  return `…${value.slice(-4)}`;
}

/**
 * The destination a create or replace body describes (issue 39: flat, with a `type`). Every field
 * of the type is required but the optional settings; a field of another type is refused by name,
 * rather than silently dropped. On replace (`current` given, same type) a credential left out
 * keeps the sealed one: admins need not paste keys again to change a prefix.
 */
export function destinationOf(body: AuditStreamBodyDto, current?: { type: AuditStreamType }): Destination {
  const fields = AUDIT_STREAM_FIELDS[body.type];
  const values = body as unknown as Record<string, string | undefined>;
  const own = new Set([...fields.settings, ...fields.credentials]);
  const foreign = ALL_FIELDS.find((f) => values[f] !== undefined && !own.has(f));
  if (foreign) throw new AuditStreamFieldError(`${foreign} is not a field of a ${body.type} stream`);
  const keepsCredentials = current?.type === body.type;
  for (const f of fields.settings) {
    if (values[f] === undefined && !AUDIT_STREAM_OPTIONAL.includes(f))
      throw new AuditStreamFieldError(`${f} is required for a ${body.type} stream`);
  }
  if (!keepsCredentials) {
    for (const f of fields.credentials) {
      if (values[f] === undefined) throw new AuditStreamFieldError(`${f} is required for a ${body.type} stream`);
    }
  }
  const pick = (names: string[]): Record<string, string> =>
    Object.fromEntries(names.filter((f) => values[f] !== undefined).map((f) => [f, values[f] as string]));
  return {
    type: body.type,
    settings: pick(fields.settings),
    credentials: pick(fields.credentials),
    filter: body.filter && body.filter.length > 0 ? [...body.filter] : null,
  };
}

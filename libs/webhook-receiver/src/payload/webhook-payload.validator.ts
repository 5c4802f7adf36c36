import { DISCUSSION_STATUSES, REPO_TYPES, type WebhookPayload } from './webhook-payload.types';

/**
 * Hand-written on purpose: the package must not depend on a schema library, and a receiver
 * needs exactly one thing from validation, the first problem as a message naming the field
 * (it becomes the 400 body). Unknown members are let through: the hub may add fields.
 */

export type PayloadValidation = { ok: true; payload: WebhookPayload } | { ok: false; error: string };

/** Returns the problem with `value` at `path`, or undefined when it is fine. */
type Check = (value: unknown, path: string) => string | undefined;
interface Field {
  check: Check;
  optional?: boolean;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const string: Check = (v, p) => (typeof v === 'string' ? undefined : `${p} must be a string`);
const boolean: Check = (v, p) => (typeof v === 'boolean' ? undefined : `${p} must be a boolean`);
const integer: Check = (v, p) => (Number.isInteger(v) ? undefined : `${p} must be an integer`);
const stringOrNull: Check = (v, p) =>
  v === null || typeof v === 'string' ? undefined : `${p} must be a string or null`;
const oneOf =
  (values: readonly (string | number)[]): Check =>
  (v, p) =>
    (typeof v === 'string' || typeof v === 'number') && values.includes(v)
      ? undefined
      : `${p} must be one of ${values.join(', ')}`;

const required = (check: Check): Field => ({ check });
const optional = (check: Check): Field => ({ check, optional: true });

/** A missing required member runs its check on `undefined`, so the message says what is expected. */
const shape = (fields: Record<string, Field>): Check => {
  const entries = Object.entries(fields); // once, not per delivery: this runs on every request
  return (v, p) => {
    if (!isObject(v)) return `${p} must be an object`;
    for (const [key, field] of entries) {
      const child = v[key];
      if (child === undefined && field.optional) continue;
      const problem = field.check(child, `${p}.${key}`);
      if (problem) return problem;
    }
    return undefined;
  };
};

const arrayOf =
  (item: Check): Check =>
  (v, p) => {
    if (!Array.isArray(v)) return `${p} must be an array`;
    for (let i = 0; i < v.length; i++) {
      const problem = item(v[i], `${p}[${i}]`);
      if (problem) return problem;
    }
    return undefined;
  };

// Spec 4.8 rule 2 promises only repo.type and event.action (and the Python client's own model makes
// url.api optional), so every other member is checked for its type only where it is present.
const url = shape({ web: optional(string), api: optional(string) });
const ref = shape({ id: required(string) });

/** Order matters: the members the spec requires (repo.type, event.action) are checked first. */
const TOP_LEVEL: [string, Field][] = Object.entries({
  repo: required(
    shape({
      type: required(oneOf(REPO_TYPES)),
      name: optional(string),
      id: optional(string),
      private: optional(boolean),
      url: optional(url),
      owner: optional(ref),
      headSha: optional(string),
    }),
  ),
  event: required(shape({ action: required(string), scope: optional(string) })),
  webhook: optional(shape({ id: optional(string), version: optional(integer) })),
  discussion: optional(
    shape({
      id: required(string),
      num: required(integer),
      title: required(string),
      url: required(url),
      status: required(oneOf(DISCUSSION_STATUSES)),
      author: required(ref),
      isPullRequest: required(boolean),
      changes: optional(shape({ base: required(string) })),
    }),
  ),
  comment: optional(
    shape({
      id: required(string),
      author: required(ref),
      hidden: required(boolean),
      content: optional(string),
      url: required(shape({ web: required(string) })),
    }),
  ),
  updatedRefs: optional(
    arrayOf(shape({ ref: required(string), oldSha: required(stringOrNull), newSha: required(stringOrNull) })),
  ),
  updatedConfig: optional(shape({ private: optional(boolean) })),
  movedTo: optional(shape({ name: required(string), owner: required(ref) })),
});

export function validateWebhookPayload(value: unknown): PayloadValidation {
  if (!isObject(value)) return { ok: false, error: 'payload must be a JSON object' };
  for (const [key, field] of TOP_LEVEL) {
    const child = value[key];
    if (child === undefined && field.optional) continue;
    const problem = field.check(child, key);
    if (problem) return { ok: false, error: problem };
  }
  // Every member the type declares was checked above; extra members are allowed by design.
  return { ok: true, payload: value as unknown as WebhookPayload };
}

/** Throwing form for code that prefers exceptions (e.g. a job script). */
export function assertWebhookPayload(value: unknown): asserts value is WebhookPayload {
  const result = validateWebhookPayload(value);
  if (!result.ok) throw new TypeError(result.error);
}

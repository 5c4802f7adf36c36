import { TOKEN_ROLES, type TokenRole } from '../enums';
import { NAME_PATTERN } from '../names';

/** Who asks, carried with every RPC for authorization and audit. */
export interface RequestContext {
  requestId: string;
  userId?: string;
  userName?: string;
  tokenId?: string;
  tokenRole?: TokenRole;
  ip?: string;
  userAgent?: string;
  /** Set when the caller is the admin API (HUB_ADMIN_TOKEN). */
  admin?: boolean;
  /** W3C trace context of the caller's span, when tracing is on (decision 0504). */
  traceparent?: string;
}

/** What travels on an RPC subject: the payload DTO plus the context. */
export interface RpcMessage<T> {
  ctx: RequestContext;
  data: T;
}

/** The gateway's X-Request-Id rule: what a request id may be anywhere on the bus. */
export const REQUEST_ID_PATTERN = /^[A-Za-z0-9._:-]{1,128}$/;
/** The gateway cuts User-Agent to this length before it travels. */
export const MAX_USER_AGENT_LENGTH = 300;
const MAX_IP_LENGTH = 64;
const OBJECT_ID = /^[0-9a-f]{24}$/;
const ROLES: ReadonlySet<string> = new Set(TOKEN_ROLES);

type Check = (v: unknown) => boolean;
const isString =
  (max: number): Check =>
  (v) =>
    typeof v === 'string' && v.length > 0 && v.length <= max;
const matches =
  (re: RegExp): Check =>
  (v) =>
    typeof v === 'string' && re.test(v);

/** Each optional field with its rule and the message naming it. */
const OPTIONAL: ReadonlyArray<[keyof RequestContext, Check, string]> = [
  ['userId', matches(OBJECT_ID), 'ctx.userId must be a 24-character hex id'],
  ['userName', matches(NAME_PATTERN), 'ctx.userName must be a user name'],
  ['tokenId', matches(OBJECT_ID), 'ctx.tokenId must be a 24-character hex id'],
  ['tokenRole', (v) => typeof v === 'string' && ROLES.has(v), `ctx.tokenRole must be one of ${TOKEN_ROLES.join(', ')}`],
  ['ip', isString(MAX_IP_LENGTH), `ctx.ip must be a string of 1..${MAX_IP_LENGTH} characters`],
  [
    'userAgent',
    (v) => typeof v === 'string' && v.length <= MAX_USER_AGENT_LENGTH,
    `ctx.userAgent must be a string of at most ${MAX_USER_AGENT_LENGTH} characters`,
  ],
  ['admin', (v) => typeof v === 'boolean', 'ctx.admin must be a boolean'],
  [
    'traceparent',
    matches(/^00-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}$/),
    'ctx.traceparent must be a W3C traceparent (00-<32 hex>-<16 hex>-<2 hex>)',
  ],
];

/**
 * A service checks the context that arrives with every RPC before a handler trusts it for
 * authorization or audit. Hand-written rather than a class-validator class: it runs on every
 * call, and this costs about a microsecond. Unknown fields are dropped (a newer caller during a
 * rolling upgrade), absent ones stay absent. Returns the clean context, or what is wrong with it.
 */
export function checkRequestContext(value: unknown): { ctx: RequestContext } | { problem: string } {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { problem: 'ctx must be an object' };
  const v = value as Record<string, unknown>;
  const requestId = v['requestId'];
  if (typeof requestId !== 'string' || !REQUEST_ID_PATTERN.test(requestId)) {
    return { problem: 'ctx.requestId must be 1..128 letters, digits, ".", "_", ":" or "-"' };
  }
  const ctx: Record<string, unknown> = { requestId };
  for (const [key, check, message] of OPTIONAL) {
    const field = v[key];
    if (field === undefined) continue;
    if (!check(field)) return { problem: message };
    ctx[key] = field;
  }
  return { ctx: ctx as unknown as RequestContext };
}

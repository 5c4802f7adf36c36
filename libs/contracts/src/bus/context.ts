import { type TokenRole } from '../enums';

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
}

/** What travels on an RPC subject: the payload DTO plus the context. */
export interface RpcMessage<T> {
  ctx: RequestContext;
  data: T;
}

import { type TokenRole } from '../enums';

export interface UserView {
  id: string;
  name: string;
  fullname: string;
  email: string;
  avatarUrl: string;
  isPro: boolean;
  createdAt: string;
}

export interface TokenView {
  id: string;
  userId: string;
  displayName: string;
  role: TokenRole;
  last4: string;
  createdAt: string;
  lastUsedAt: string | null;
}

/** What the gateway learns from a bearer token (and caches briefly). */
export interface AuthInfo {
  user: UserView;
  token: TokenView;
  /** Organizations that cut this token off (it keeps working elsewhere). */
  revokedOrganizationIds: string[];
}

/** The only place a raw token appears: right after creation. */
export interface CreatedToken {
  token: string;
  tokenInfo: TokenView;
}

/** A token cut off from one organization (spec 4.2); it keeps working elsewhere. */
export interface OrgRevocationView {
  tokenId: string;
  organization: string;
  revokedAt: string;
}

import { AdminListTokensRpc, AdminNamesQueryDto, type AdminPage, rpc } from '@hub/contracts';
import { AdminCreateUserDto } from './admin.dto';
import { type AdminTokenView, type AdminUserView } from './credentials-admin.views';
import { CreateSessionRpc, type SessionInfo, SessionRefRpc } from './console-session.dto';
import {
  AdminRevokeTokenRpc,
  CreateTokenRpc,
  GetUserRpc,
  ProvisionUserRpc,
  RevokeLeakedRpc,
  RevokeMemberTokenRpc,
  VerifyTokenRpc,
} from './credentials-rpc.dto';
import {
  type AuthInfo,
  type CreatedToken,
  type OrgRevocationView,
  type ProvisionedUser,
  type UserView,
} from './credentials.views';
import { ReleaseNameRpc, ReserveNameRpc } from './names-rpc.dto';

/** The credentials service's RPCs `credentials.<resource>.<verb>` with their request and reply types, declared once (style.md rule 2). */
export const CredentialsRpc = {
  CreateUser: rpc<AdminCreateUserDto, UserView>('credentials.user.create', AdminCreateUserDto),
  GetUser: rpc<GetUserRpc, UserView>('credentials.user.get', GetUserRpc),
  /** The admin API's lists: users by name, a user's tokens newest first (never a value or a hash). */
  ListUsers: rpc<AdminNamesQueryDto, AdminPage<AdminUserView>>('credentials.user.list', AdminNamesQueryDto),
  ListTokens: rpc<AdminListTokensRpc, AdminPage<AdminTokenView>>('credentials.token.list', AdminListTokensRpc),
  CreateToken: rpc<CreateTokenRpc, CreatedToken>('credentials.token.create', CreateTokenRpc),
  /** The admin API revokes one token of a user by its id (decision 0807); a revoked one is answered as it is. */
  RevokeById: rpc<AdminRevokeTokenRpc, AdminTokenView>('credentials.token.revoke-by-id', AdminRevokeTokenRpc),
  VerifyToken: rpc<VerifyTokenRpc, AuthInfo>('credentials.token.verify', VerifyTokenRpc),
  RevokeLeaked: rpc<RevokeLeakedRpc, { accepted: true }>('credentials.token.revoke-leaked', RevokeLeakedRpc),
  /** The whole organization revocation: token lookup, "not your own", "held by a member", the revocation. */
  RevokeForOrg: rpc<RevokeMemberTokenRpc, OrgRevocationView>('credentials.token.revoke-for-org', RevokeMemberTokenRpc),
  /** Users and organizations share one case-insensitive name space (409 when taken). */
  ReserveName: rpc<ReserveNameRpc, { reserved: true }>('credentials.name.reserve', ReserveNameRpc),
  ReleaseName: rpc<ReleaseNameRpc, { released: boolean }>('credentials.name.release', ReleaseNameRpc),
  /** SCIM provisioning: the user of that name (any case), or a new one (decision 0420). */
  ProvisionUser: rpc<ProvisionUserRpc, ProvisionedUser>('credentials.user.provision', ProvisionUserRpc),
  /** Console sessions (decision 0800): made from a verified token, checked on every request, ended by sign-out. */
  CreateSession: rpc<CreateSessionRpc, SessionInfo>('credentials.session.create', CreateSessionRpc),
  VerifySession: rpc<SessionRefRpc, SessionInfo>('credentials.session.verify', SessionRefRpc),
  EndSession: rpc<SessionRefRpc, { ended: boolean }>('credentials.session.end', SessionRefRpc),
} as const;

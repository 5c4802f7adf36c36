import { AdminCreateUserDto } from '../admin';
import {
  type AuthInfo, type CreatedToken, CreateTokenRpc, FindTokenRpc, GetUserRpc, type OrgRevocationView, RevokeForOrgRpc,
  RevokeLeakedRpc, type TokenView, type UserView, VerifyTokenRpc,
} from '../credentials';
import {
  AddMemberRpc, CreateOrganizationRpc, GetAccessRpc, ListForUserRpc, type MemberView, type OrganizationAccess,
  OrganizationRefRpc, type OrganizationView, type UserMembership,
} from '../organizations';
import { rpc } from './descriptors';

/** RPCs `<service>.<resource>.<verb>` with their request and reply types, declared once (style.md rule 2). */
export const CredentialsRpc = {
  CreateUser: rpc<AdminCreateUserDto, UserView>('credentials.user.create', AdminCreateUserDto),
  GetUser: rpc<GetUserRpc, UserView>('credentials.user.get', GetUserRpc),
  CreateToken: rpc<CreateTokenRpc, CreatedToken>('credentials.token.create', CreateTokenRpc),
  VerifyToken: rpc<VerifyTokenRpc, AuthInfo>('credentials.token.verify', VerifyTokenRpc),
  FindToken: rpc<FindTokenRpc, TokenView>('credentials.token.find', FindTokenRpc),
  RevokeLeaked: rpc<RevokeLeakedRpc, { accepted: true }>('credentials.token.revoke-leaked', RevokeLeakedRpc),
  RevokeForOrg: rpc<RevokeForOrgRpc, OrgRevocationView>('credentials.token.revoke-for-org', RevokeForOrgRpc),
} as const;

export const OrganizationsRpc = {
  Create: rpc<CreateOrganizationRpc, OrganizationView>('organizations.organization.create', CreateOrganizationRpc),
  AddMember: rpc<AddMemberRpc, MemberView>('organizations.member.add', AddMemberRpc),
  ListMembers: rpc<OrganizationRefRpc, MemberView[]>('organizations.member.list', OrganizationRefRpc),
  GetAccess: rpc<GetAccessRpc, OrganizationAccess>('organizations.access.get', GetAccessRpc),
  ListForUser: rpc<ListForUserRpc, UserMembership[]>('organizations.membership.list-for-user', ListForUserRpc),
} as const;

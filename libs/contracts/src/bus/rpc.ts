import { subject } from './prefix';

/** RPC subjects `<service>.<resource>.<verb>`, declared once (style.md rule 2). */
export const CredentialsRpc = {
  CreateUser: subject('credentials.user.create'),
  GetUser: subject('credentials.user.get'),
  CreateToken: subject('credentials.token.create'),
  VerifyToken: subject('credentials.token.verify'),
  FindToken: subject('credentials.token.find'),
  RevokeLeaked: subject('credentials.token.revoke-leaked'),
  RevokeForOrg: subject('credentials.token.revoke-for-org'),
} as const;

export const OrganizationsRpc = {
  Create: subject('organizations.organization.create'),
  AddMember: subject('organizations.member.add'),
  ListMembers: subject('organizations.member.list'),
  GetAccess: subject('organizations.access.get'),
  ListForUser: subject('organizations.membership.list-for-user'),
} as const;


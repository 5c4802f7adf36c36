import { type OrgPlan, type OrgRole } from '../enums';

export interface OrganizationView {
  id: string;
  name: string;
  fullname: string;
  avatarUrl: string;
  plan: OrgPlan;
  createdAt: string;
}

export interface MemberView {
  userId: string;
  user: string;
  role: OrgRole;
  addedAt: string;
}

/** The caller's standing in one organization: what org-scoped authorization needs. */
export interface OrganizationAccess {
  organization: OrganizationView;
  /** null when the user is not a member. */
  role: OrgRole | null;
}

export interface UserMembership {
  organization: OrganizationView;
  role: OrgRole;
}

export const TOKEN_ROLES = ['read', 'write', 'fineGrained'] as const;
export type TokenRole = (typeof TOKEN_ROLES)[number];

/** Plans in ascending order: a gate "Team or higher" accepts every plan from team on. */
export const ORG_PLANS = ['free', 'team', 'enterprise', 'enterprise_plus'] as const;
export type OrgPlan = (typeof ORG_PLANS)[number];

export function planAtLeast(plan: OrgPlan, minimum: OrgPlan): boolean {
  return ORG_PLANS.indexOf(plan) >= ORG_PLANS.indexOf(minimum);
}

export const PLAN_LABELS: Record<OrgPlan, string> = {
  free: 'Free',
  team: 'Team',
  enterprise: 'Enterprise',
  enterprise_plus: 'Enterprise Plus',
};

/** Built-in member roles; an organization may also define custom role names. */
export const ORG_ROLES = ['admin', 'write', 'contributor', 'read', 'no_access'] as const;
export type BuiltInOrgRole = (typeof ORG_ROLES)[number];
export type OrgRole = BuiltInOrgRole | (string & {});

/**
 * Whether a member's role opens anything of the organization (its members, repositories, jobs,
 * private repos' events). `no_access` is the membership and nothing else (decision 0014); null is
 * not a member. Custom roles read, as the built-in ones above no_access do.
 */
export function roleGrantsAccess(role: OrgRole | null): role is OrgRole {
  return role !== null && role !== 'no_access';
}

export const AUTHOR_TYPES = ['user', 'system'] as const;
export const RESOURCE_GROUP_AUTO_JOIN_SCOPES = ['all', 'read_plus'] as const;

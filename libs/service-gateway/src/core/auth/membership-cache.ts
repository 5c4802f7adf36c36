import { type UserMembership } from '@hub/organizations-contract';
import { TtlCache } from './ttl-cache';

/**
 * A user's organizations, as whoami shows them, by user id. Dropped when organizations
 * announce a membership change (every replica), and locally by the admin API that made it.
 */
export class MembershipCache extends TtlCache<string, UserMembership[]> {}

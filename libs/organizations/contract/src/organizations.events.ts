import { IsArray, Matches } from 'class-validator';
import { event, OBJECT_ID_PATTERN } from '@hub/contracts';

/** `hub.organizations.membership.changed`: someone joined or changed role; gateways drop cached memberships. */
export class MembershipChangedEvent {
  @Matches(OBJECT_ID_PATTERN)
  organizationId!: string;

  @IsArray()
  @Matches(OBJECT_ID_PATTERN, { each: true })
  userIds!: string[];
}

/**
 * The organizations service's membership event. Its other events: `AuditStreamEvents`
 * (audit-stream.events.ts); the hub events it reads are `PaperEvents` (paper.events.ts) and
 * `RepoEvents` (repo.events.ts).
 */
export const OrganizationsEvents = {
  MembershipChanged: event<MembershipChangedEvent>('hub.organizations.membership.changed', MembershipChangedEvent),
} as const;

import { type EntityManager } from 'typeorm';
import { type MembershipChangedEvent, OrganizationsEvents } from '@hub/organizations-contract';
import { type Outbox } from '@hub/messaging';

/** Tells every gateway that these users' organizations changed (they cache them for whoami), once the transaction commits. */
export async function recordMembershipChanged(
  outbox: Outbox,
  m: EntityManager,
  organizationId: string,
  userIds: string[],
): Promise<void> {
  const event: MembershipChangedEvent = { organizationId, userIds };
  await outbox.add(m, OrganizationsEvents.MembershipChanged, event, { aggregate: organizationId });
}

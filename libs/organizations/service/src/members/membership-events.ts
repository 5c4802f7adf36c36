import { type EntityManager } from 'typeorm';
import { Events, type MembershipChangedEvent } from '@hub/contracts';
import { type Outbox } from '@hub/messaging';

/** Tells every gateway that these users' organizations changed (they cache them for whoami), once the transaction commits. */
export async function recordMembershipChanged(
  outbox: Outbox,
  m: EntityManager,
  organizationId: string,
  userIds: string[],
): Promise<void> {
  const event: MembershipChangedEvent = { organizationId, userIds };
  await outbox.add(m, Events.MembershipChanged, event, { aggregate: organizationId });
}

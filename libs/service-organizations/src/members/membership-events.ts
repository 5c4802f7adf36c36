import { Events, type MembershipChangedEvent } from '@hub/contracts';
import { type EventBus } from '@hub/messaging';
import { newObjectId } from '@hub/persistence';

/** Tells every gateway that these users' organizations changed (they cache them for whoami). */
export async function publishMembershipChanged(events: EventBus, organizationId: string, userIds: string[]): Promise<void> {
  const event: MembershipChangedEvent = { organizationId, userIds };
  await events.publish(Events.MembershipChanged, event, { msgId: newObjectId() });
}

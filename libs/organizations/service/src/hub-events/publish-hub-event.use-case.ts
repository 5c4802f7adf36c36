import { Injectable } from '@nestjs/common';
import { declaredEvents, Events, type PayloadClass } from '@hub/contracts';
import { type AdminPublishEventDto, HubEventsRpc } from '@hub/organizations-contract';
import { EventBus, RpcHandler, validateEventPayload } from '@hub/messaging';
import { newObjectId } from '@hub/persistence';
import { EventPayloadRefusedError } from './hub-events.errors';

/**
 * A payload some consumer of its subject would refuse is refused here, as that consumer would
 * (its descriptor's class, same validation): else the admin got 202 for an event that only ever
 * reached the dead-letter subject (issue 22). A subject no descriptor names stays free-form.
 * Answers the classes it passed: the in-process bus does not validate it against them again
 * (decision 0512; the payload is JSON off the request, so its JSON is what was checked).
 */
function checkAgainstConsumers(subject: string, payload: Record<string, unknown>): PayloadClass<unknown>[] {
  const passed: PayloadClass<unknown>[] = [];
  for (const d of declaredEvents()) {
    if (d.family ? !subject.startsWith(`${d.name}.`) : subject !== d.name) continue;
    const checked = validateEventPayload(d.payload, payload);
    if (!checked.ok) throw new EventPayloadRefusedError(subject, checked.error);
    passed.push(d.payload);
  }
  return passed;
}

/**
 * The admin API's "publish a hub event": the gateway asks, this service publishes. The gateway's
 * NATS user holds no right to publish on `hub.events.>` or `hub.audit.>` (decision 0013), and the
 * admin check happened there (AdminOnly) before the request was sent.
 */
@Injectable()
export class PublishHubEventUseCase {
  constructor(private readonly events: EventBus) {}

  @RpcHandler(HubEventsRpc.Publish)
  async execute(dto: AdminPublishEventDto): Promise<{ subject: string; id: string }> {
    const checked = checkAgainstConsumers(dto.subject, dto.payload);
    const id = newObjectId();
    await this.events.publish(Events.Hub.of(dto.subject.slice('hub.events.'.length)), dto.payload, {
      msgId: id,
      checked,
    });
    return { subject: dto.subject, id };
  }
}

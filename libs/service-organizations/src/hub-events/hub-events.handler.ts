import { AdminPublishEventDto, Events, HubEventsRpc } from '@hub/contracts';
import { EventBus, RpcController, RpcHandler } from '@hub/messaging';
import { newObjectId } from '@hub/persistence';

/**
 * The admin API's "publish a hub event": the gateway asks, this service publishes. The gateway's
 * NATS user holds no right to publish on `hub.events.>` or `hub.audit.>` (decision 0013), and the
 * admin check happened there (AdminOnly) before the request was sent.
 */
@RpcController()
export class HubEventsHandler {
  constructor(private readonly events: EventBus) {}

  @RpcHandler(HubEventsRpc.Publish)
  async onPublish(dto: AdminPublishEventDto): Promise<{ subject: string; id: string }> {
    const id = newObjectId();
    await this.events.publish(Events.Hub.of(dto.subject.slice('hub.events.'.length)), dto.payload, { msgId: id });
    return { subject: dto.subject, id };
  }
}

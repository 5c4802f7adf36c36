import { AdminPublishEventDto } from '@hub/organizations-contract';
import { HubEventsRpc } from '@hub/organizations-contract';
import { RpcController, RpcHandler } from '@hub/messaging';
import { PublishHubEventUseCase } from './publish-hub-event.use-case';

@RpcController()
export class HubEventsHandler {
  constructor(private readonly publishHubEvent: PublishHubEventUseCase) {}

  @RpcHandler(HubEventsRpc.Publish)
  onPublish(dto: AdminPublishEventDto): Promise<{ subject: string; id: string }> {
    return this.publishHubEvent.execute(dto);
  }
}

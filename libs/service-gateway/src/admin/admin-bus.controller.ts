import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiAcceptedResponse, ApiBearerAuth, ApiCreatedResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  AdminCreateRepoDto, AdminPublishEventDto, Events, RepositoriesRpc, RepoUsageView, type RequestContext,
} from '@hub/contracts';
import { EventBus, RpcClient } from '@hub/messaging';
import { newObjectId } from '@hub/persistence';
import { AdminOnly, Ctx } from '../core';
import { PublishedEvent } from './admin.views';

@ApiTags('admin')
@ApiBearerAuth()
@AdminOnly()
@Controller('admin')
export class AdminBusController {
  constructor(
    private readonly events: EventBus,
    private readonly rpc: RpcClient,
  ) {}

  @Post('events')
  @HttpCode(202)
  @ApiOperation({ summary: "Publish a hub event on the bus, as another hub area would (hub.events.repo.…, discussion, paper, post, blog)" })
  @ApiAcceptedResponse({ description: 'Published', type: PublishedEvent })
  async publish(@Body() dto: AdminPublishEventDto): Promise<PublishedEvent> {
    const id = newObjectId();
    await this.events.publish(Events.Hub.of(dto.subject.slice('hub.events.'.length)), dto.payload, { msgId: id });
    return { subject: dto.subject, id };
  }

  @Post('repos')
  @ApiOperation({ summary: 'Add a repository to the catalogue, or set its visibility and storage (as a repo event would)' })
  @ApiCreatedResponse({ description: 'The repository as the usage listings show it', type: RepoUsageView })
  createRepo(@Body() dto: AdminCreateRepoDto, @Ctx() ctx: RequestContext): Promise<RepoUsageView> {
    return this.rpc.call(RepositoriesRpc.Upsert, {
      name: dto.name, type: dto.type, visibility: dto.private ? 'private' : 'public', storage: dto.storage,
    }, ctx);
  }
}

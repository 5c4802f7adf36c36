import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiAcceptedResponse, ApiBearerAuth, ApiCreatedResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { type RequestContext } from '@hub/contracts';
import {
  AdminCreateRepoDto,
  AdminPublishEventDto,
  HubEventsRpc,
  RepositoriesRpc,
  RepoUsageView,
} from '@hub/organizations-contract';
import { RpcClient } from '@hub/messaging';
import { AdminOnly, ApiErrorResponse, Ctx } from '@hub/service-gateway';
import { PublishedEvent } from './admin.views';

@ApiTags('admin')
@ApiBearerAuth()
@AdminOnly()
@Controller('admin')
export class AdminBusController {
  constructor(private readonly rpc: RpcClient) {}

  @Post('events')
  @HttpCode(202)
  @ApiOperation({
    summary:
      'Publish a hub event on the bus, as another hub area would (hub.events.repo.…, discussion, paper, post, blog)',
  })
  @ApiAcceptedResponse({ description: 'Published', type: PublishedEvent })
  @ApiErrorResponse(
    400,
    "The payload does not fit the published schema of its subject (every consumer's payload class); the message names the field",
  )
  publish(@Body() dto: AdminPublishEventDto, @Ctx() ctx: RequestContext): Promise<PublishedEvent> {
    // Checked against its consumers and published by the organizations service: the gateway may not
    // publish hub events (decision 0013).
    return this.rpc.call(HubEventsRpc.Publish, dto, ctx);
  }

  @Post('repos')
  @ApiOperation({
    summary: 'Add a repository to the catalogue, or set its visibility and storage (as a repo event would)',
  })
  @ApiCreatedResponse({ description: 'The repository as the usage listings show it', type: RepoUsageView })
  createRepo(@Body() dto: AdminCreateRepoDto, @Ctx() ctx: RequestContext): Promise<RepoUsageView> {
    return this.rpc.call(
      RepositoriesRpc.Upsert,
      {
        name: dto.name,
        type: dto.type,
        visibility: dto.private ? 'private' : 'public',
        storage: dto.storage,
      },
      ctx,
    );
  }
}

import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiAcceptedResponse, ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AdminCreateRepoDto, AdminPublishEventDto, Events } from '@hub/contracts';
import { EventBus } from '@hub/messaging';
import { newObjectId } from '@hub/persistence';
import { AdminOnly, ApiErrorResponse } from '../core';
import { RepoCatalogueUnavailableError } from './admin.errors';
import { PublishedEvent } from './admin.views';

@ApiTags('admin')
@ApiBearerAuth()
@AdminOnly()
@Controller('admin')
export class AdminBusController {
  constructor(private readonly events: EventBus) {}

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
  @ApiOperation({ summary: 'Add a repository to the catalogue (arrives with repository storage usage)' })
  @ApiErrorResponse(501, 'The repository catalogue is not available yet')
  createRepo(@Body() _dto: AdminCreateRepoDto): never {
    throw new RepoCatalogueUnavailableError();
  }
}

import { Body, Controller, HttpCode, HttpException, Post } from '@nestjs/common';
import { ApiAcceptedResponse, ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AdminCreateRepoDto, AdminPublishEventDto, Events } from '@hub/contracts';
import { EventBus } from '@hub/messaging';
import { newObjectId } from '@hub/persistence';
import { AdminOnly } from '../core';

@ApiTags('admin')
@ApiBearerAuth()
@AdminOnly()
@Controller('admin')
export class AdminBusController {
  constructor(private readonly events: EventBus) {}

  @Post('events')
  @HttpCode(202)
  @ApiOperation({ summary: "Publish a hub event on the bus, as another hub area would (hub.events.repo.…, discussion, paper, post, blog)" })
  @ApiAcceptedResponse({ description: 'Published' })
  async publish(@Body() dto: AdminPublishEventDto): Promise<{ subject: string; id: string }> {
    const id = newObjectId();
    await this.events.publish(Events.Hub.of(dto.subject.slice('hub.events.'.length)), dto.payload, { msgId: id });
    return { subject: dto.subject, id };
  }

  @Post('repos')
  @ApiOperation({ summary: 'Add a repository to the catalogue (arrives with repository storage usage)' })
  createRepo(@Body() _dto: AdminCreateRepoDto): never {
    throw new HttpException('The repository catalogue is not available yet: it arrives with repository storage usage', 501);
  }
}

import { ApiProperty } from '@nestjs/swagger';
import { ClosedSchema } from '@hub/contracts';

/** POST /admin/events: where it went and the id that dedupes it on the bus. */
@ClosedSchema()
export class PublishedEvent {
  @ApiProperty({ example: 'hub.events.repo.update' })
  subject!: string;

  @ApiProperty({ description: 'the message id (Nats-Msg-Id)' })
  id!: string;
}

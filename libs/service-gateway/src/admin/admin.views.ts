import { ApiProperty } from '@nestjs/swagger';
import { ClosedSchema } from '@hub/contracts';
import { TokenView } from '@hub/credentials-contract';

/** POST /admin/users/{name}/tokens: the token's view plus, this once, its raw value. */
@ClosedSchema()
export class CreatedTokenAnswer extends TokenView {
  @ApiProperty({ description: 'the raw token: shown this once, never again' })
  token!: string;
}

/** POST /admin/events: where it went and the id that dedupes it on the bus. */
@ClosedSchema()
export class PublishedEvent {
  @ApiProperty({ example: 'hub.events.repo.update' })
  subject!: string;

  @ApiProperty({ description: 'the message id (Nats-Msg-Id)' })
  id!: string;
}

import { ApiProperty } from '@nestjs/swagger';
import { ClosedSchema } from './closed-schema';

/** Every error answer: `{"error": "<message naming the field or cause>"}` (architecture section 6). */
@ClosedSchema()
export class ErrorBody {
  @ApiProperty({ description: 'what went wrong, naming the field or cause; also in the X-Error-Message header' })
  error!: string;
}

/** The empty object some operations answer with (`{}`), e.g. the leaked-token revocation. */
@ClosedSchema()
export class EmptyAnswer {}

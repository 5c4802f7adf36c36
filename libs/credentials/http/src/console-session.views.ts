import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsString, Length } from 'class-validator';

/** The console's sign-in: the token a person pastes into the "Access token" field. */
export class ConsoleSignInDto {
  @ApiProperty({ description: 'A user access token, or the admin token for the operator screens' })
  @IsString()
  @Length(1, 200)
  token!: string;
}

export class ConsoleSessionUser {
  @ApiProperty() id!: string;
  @ApiProperty() name!: string;
  @ApiProperty() fullname!: string;
  @ApiProperty({ enum: ['read', 'write', 'fineGrained'] }) tokenRole!: string;
}

/** The session the cookie names: who, until when, and the CSRF token its changes must carry. */
export class ConsoleSessionView {
  @ApiProperty({ enum: ['user', 'operator'] })
  kind!: 'user' | 'operator';

  @ApiPropertyOptional({ type: ConsoleSessionUser, description: 'Absent for an operator session' })
  user?: ConsoleSessionUser;

  @ApiProperty({ description: 'Send it as X-CSRF-Token on every request that changes something' })
  csrfToken!: string;

  @ApiProperty({ format: 'date-time' })
  expiresAt!: string;
}

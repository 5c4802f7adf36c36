import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsEmail, IsIn, IsOptional, IsString, Length, Matches } from 'class-validator';
import { IsLabel, NAME_PATTERN, NAME_RULE, TOKEN_ROLES, type TokenRole } from '@hub/contracts';

/** The admin API's bodies for users and their tokens (`/admin/users…`). */
export class AdminCreateUserDto {
  @ApiProperty({ pattern: NAME_PATTERN.source, description: NAME_RULE })
  @Matches(NAME_PATTERN, { message: `name must be ${NAME_RULE}` })
  @IsString({ message: 'name must be a string' })
  name!: string;

  @ApiProperty({ format: 'email' })
  @Length(3, 254, { message: 'email must be 3..254 characters long' })
  @IsEmail({}, { message: 'email must be an e-mail address' })
  @IsString({ message: 'email must be a string' })
  email!: string;

  @ApiPropertyOptional({ maxLength: 200 })
  @IsOptional()
  @IsLabel({ minLength: 0, maxLength: 200 })
  fullname?: string;
}

export class AdminCreateTokenDto {
  @ApiProperty({ enum: TOKEN_ROLES })
  @IsIn(TOKEN_ROLES, { message: `role must be one of ${TOKEN_ROLES.join(', ')}` })
  role!: TokenRole;

  @ApiPropertyOptional({ maxLength: 100 })
  @IsOptional()
  @IsLabel({ minLength: 1, maxLength: 100 })
  displayName?: string;
}

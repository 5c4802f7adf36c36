import { IsOptional, IsString, Matches } from 'class-validator';
import { HubConfig } from '@hub/config';

export class CredentialsConfig extends HubConfig {
  /** smtp://user:pass@host:port or smtps://…; without it mails are written to the log (all-in-one). */
  @IsOptional()
  @Matches(/^smtps?:\/\//, { message: 'SMTP_URL must start with smtp:// or smtps://' })
  SMTP_URL?: string;

  @IsString()
  SMTP_FROM: string = 'Hub <no-reply@hub.local>';
}

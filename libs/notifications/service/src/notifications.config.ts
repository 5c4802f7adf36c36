import { IsNumber, IsOptional, IsString, Matches, Max, Min } from 'class-validator';
import { HubConfig } from '@hub/config';

export class NotificationsConfig extends HubConfig {
  /** smtp://user:pass@host:port or smtps://…; without it mails are written to the log (all-in-one). */
  @IsOptional()
  @Matches(/^smtps?:\/\//, { message: 'SMTP_URL must start with smtp:// or smtps://' })
  SMTP_URL?: string;

  @IsString()
  SMTP_FROM: string = 'Hub <no-reply@hub.local>';

  /** Days a read notification is kept after its last activity (decision 0206); unread ones stay. */
  @IsNumber()
  @Min(1)
  @Max(3650)
  HUB_NOTIFICATIONS_READ_RETENTION_DAYS: number = 180;
}

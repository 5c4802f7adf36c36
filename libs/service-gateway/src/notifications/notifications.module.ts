import { Module } from '@nestjs/common';
import { NotificationSettingsController } from './notification-settings.controller';
import { NotificationsController } from './notifications.controller';

/** `/api/notifications` (the inbox) and `/api/settings/notifications|watch`. */
@Module({ controllers: [NotificationsController, NotificationSettingsController] })
export class NotificationsApiModule {}

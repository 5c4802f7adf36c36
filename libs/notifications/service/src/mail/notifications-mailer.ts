import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource } from 'typeorm';
import { OutboxMailer } from '@hub/messaging';
import { type NotificationsConfig } from '../notifications.config';
import { NOTIFICATIONS_CONFIG, NOTIFICATIONS_DS, NOTIFICATIONS_SCHEMA } from '../notifications.di';

/** The shared mailer on notifications' own outbox (`notifications.email_outbox`). */
@Injectable()
export class NotificationsMailer extends OutboxMailer {
  constructor(
    @InjectDataSource(NOTIFICATIONS_DS) ds: DataSource,
    @Inject(NOTIFICATIONS_CONFIG) config: NotificationsConfig,
  ) {
    super(ds, NOTIFICATIONS_SCHEMA, config);
  }
}

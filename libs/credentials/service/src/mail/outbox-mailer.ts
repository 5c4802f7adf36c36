import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource } from 'typeorm';
import { OutboxMailer as SharedOutboxMailer } from '@hub/messaging';
import { type CredentialsConfig } from '../credentials.config';
import { CREDENTIALS_CONFIG, CREDENTIALS_DS } from '../credentials.di';

/** Credentials' e-mail outbox (`credentials.email_outbox`): the shared mailer on this service's DataSource. */
@Injectable()
export class OutboxMailer extends SharedOutboxMailer {
  constructor(@InjectDataSource(CREDENTIALS_DS) ds: DataSource, @Inject(CREDENTIALS_CONFIG) config: CredentialsConfig) {
    super(ds, 'credentials', config);
  }
}

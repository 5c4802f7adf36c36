import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource } from 'typeorm';
import { CREDENTIALS_DS } from '../credentials.di';
import { SessionsStore } from './sessions.store';

/** Sign-out: the session is gone on every gateway at once (each cookie request verifies it here). */
@Injectable()
export class EndSessionUseCase {
  constructor(@InjectDataSource(CREDENTIALS_DS) private readonly ds: DataSource) {}

  async execute(sessionHash: string): Promise<{ ended: boolean }> {
    return { ended: await SessionsStore.remove(this.ds.manager, sessionHash) };
  }
}

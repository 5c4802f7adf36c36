import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource } from 'typeorm';
import { CredentialsRpc, type SessionRefRpc } from '@hub/credentials-contract';
import { CREDENTIALS_DS } from '../credentials.di';
import { SessionsStore } from './sessions.store';
import { RpcHandler } from '@hub/messaging';

/** Sign-out: the session is gone on every gateway at once (each cookie request verifies it here). */
@Injectable()
export class EndSessionUseCase {
  constructor(@InjectDataSource(CREDENTIALS_DS) private readonly ds: DataSource) {}

  @RpcHandler(CredentialsRpc.EndSession)
  async execute({ sessionHash }: SessionRefRpc): Promise<{ ended: boolean }> {
    return { ended: await SessionsStore.remove(this.ds.manager, sessionHash) };
  }
}

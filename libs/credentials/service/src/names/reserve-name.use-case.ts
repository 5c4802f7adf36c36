import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource } from 'typeorm';
import { CredentialsRpc, type ReserveNameRpc } from '@hub/credentials-contract';
import { CREDENTIALS_DS } from '../credentials.di';
import { claimName } from './claim-name';
import { RpcHandler } from '@hub/messaging';

/** The name registry as other services use it: organizations reserve their names here. */
@Injectable()
export class ReserveNameUseCase {
  constructor(@InjectDataSource(CREDENTIALS_DS) private readonly ds: DataSource) {}

  @RpcHandler(CredentialsRpc.ReserveName)
  async execute(dto: ReserveNameRpc): Promise<{ reserved: true }> {
    await this.ds.transaction((m) => claimName(m, dto.name, dto.kind, dto.ownerId));
    return { reserved: true };
  }
}

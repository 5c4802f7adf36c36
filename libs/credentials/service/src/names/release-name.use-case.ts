import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource } from 'typeorm';
import { CredentialsRpc, type ReleaseNameRpc } from '@hub/credentials-contract';
import { CREDENTIALS_DS } from '../credentials.di';
import { NamesStore } from './names.store';
import { RpcHandler } from '@hub/messaging';

/** Undoes a reservation whose organization was never created. Users' names are never released here. */
@Injectable()
export class ReleaseNameUseCase {
  constructor(@InjectDataSource(CREDENTIALS_DS) private readonly ds: DataSource) {}

  @RpcHandler(CredentialsRpc.ReleaseName)
  async execute(dto: ReleaseNameRpc): Promise<{ released: boolean }> {
    return { released: await NamesStore.releaseOrganization(this.ds.manager, dto.ownerId) };
  }
}

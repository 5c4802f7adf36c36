import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource } from 'typeorm';
import { type UserView, type GetUserRpc, CredentialsRpc } from '@hub/credentials-contract';
import { type CredentialsConfig } from '../credentials.config';
import { CREDENTIALS_CONFIG, CREDENTIALS_DS } from '../credentials.di';
import { toUserView, UsersStore } from './users.store';
import { UserNotFoundError } from './users.errors';
import { RpcHandler } from '@hub/messaging';

@Injectable()
export class GetUserUseCase {
  constructor(
    @InjectDataSource(CREDENTIALS_DS) private readonly ds: DataSource,
    @Inject(CREDENTIALS_CONFIG) private readonly config: CredentialsConfig,
  ) {}

  @RpcHandler(CredentialsRpc.GetUser)
  async execute({ name }: GetUserRpc): Promise<UserView> {
    const user = await UsersStore.byName(this.ds.manager, name);
    if (!user) throw new UserNotFoundError(name);
    return toUserView(user, this.config.publicUrl);
  }
}

import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource } from 'typeorm';
import { type UserView } from '@hub/contracts';
import { type CredentialsConfig } from '../credentials.config';
import { CREDENTIALS_CONFIG, CREDENTIALS_DS } from '../credentials.tokens';
import { UserEntity } from './user.entity';
import { toUserView } from './user.view';
import { UserNotFoundError } from './users.errors';

@Injectable()
export class GetUserUseCase {
  constructor(
    @InjectDataSource(CREDENTIALS_DS) private readonly ds: DataSource,
    @Inject(CREDENTIALS_CONFIG) private readonly config: CredentialsConfig,
  ) {}

  async execute(name: string): Promise<UserView> {
    const user = await this.ds.getRepository(UserEntity).findOneBy({ name });
    if (!user) throw new UserNotFoundError(name);
    return toUserView(user, this.config.publicUrl);
  }
}

import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource, QueryFailedError } from 'typeorm';
import { type UserView } from '@hub/contracts';
import { type AdminCreateUserDto } from '@hub/contracts';
import { newObjectId } from '@hub/persistence';
import { type CredentialsConfig } from '../credentials.config';
import { CREDENTIALS_CONFIG, CREDENTIALS_DS } from '../credentials.tokens';
import { UserEntity } from './user.entity';
import { toUserView } from './user.view';
import { UserExistsError } from './users.errors';

@Injectable()
export class CreateUserUseCase {
  constructor(
    @InjectDataSource(CREDENTIALS_DS) private readonly ds: DataSource,
    @Inject(CREDENTIALS_CONFIG) private readonly config: CredentialsConfig,
  ) {}

  async execute(dto: AdminCreateUserDto): Promise<UserView> {
    const user = this.ds.getRepository(UserEntity).create({
      id: newObjectId(),
      name: dto.name,
      email: dto.email,
      fullname: dto.fullname ?? dto.name,
      isPro: false,
    });
    try {
      await this.ds.getRepository(UserEntity).insert(user);
    } catch (e) {
      if (e instanceof QueryFailedError && (e.driverError as { code?: string }).code === '23505') {
        throw new UserExistsError(dto.name);
      }
      throw e;
    }
    const saved = await this.ds.getRepository(UserEntity).findOneByOrFail({ id: user.id });
    return toUserView(saved, this.config.publicUrl);
  }
}

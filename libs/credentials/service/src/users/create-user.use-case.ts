import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource } from 'typeorm';
import { type AdminCreateUserDto, CredentialsRpc } from '@hub/credentials-contract';
import { type UserView } from '@hub/credentials-contract';
import { newObjectId, uniqueViolation } from '@hub/persistence';
import { type CredentialsConfig } from '../credentials.config';
import { CREDENTIALS_CONFIG, CREDENTIALS_DS } from '../credentials.di';
import { claimName } from '../names/claim-name';
import { EmailTakenError, NameTakenError } from '../names/names.errors';
import { toUserView, UsersStore } from './users.store';
import { RpcHandler } from '@hub/messaging';

/** The index that keeps e-mails unique whatever their case (migration 1763900000000). */
const EMAIL_INDEX = 'users_email_lower';

@Injectable()
export class CreateUserUseCase {
  constructor(
    @InjectDataSource(CREDENTIALS_DS) private readonly ds: DataSource,
    @Inject(CREDENTIALS_CONFIG) private readonly config: CredentialsConfig,
  ) {}

  @RpcHandler(CredentialsRpc.CreateUser)
  async execute(dto: AdminCreateUserDto): Promise<UserView> {
    const id = newObjectId();
    try {
      // The user and its claim on the shared name space commit together.
      await this.ds.transaction(async (m) => {
        await UsersStore.insert(m, {
          id,
          name: dto.name,
          email: dto.email,
          fullname: dto.fullname ?? dto.name,
          isPro: false,
        });
        await claimName(m, dto.name, 'user', id);
      });
    } catch (e) {
      const violation = uniqueViolation(e);
      if (violation?.constraint === EMAIL_INDEX) throw new EmailTakenError(dto.email);
      if (violation) throw new NameTakenError(dto.name);
      throw e;
    }
    const saved = await UsersStore.byId(this.ds.manager, id);
    return toUserView(saved, this.config.publicUrl);
  }
}

import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource } from 'typeorm';
import { type ProvisionedUser, type ProvisionUserRpc } from '@hub/contracts';
import { type CredentialsConfig } from '../credentials.config';
import { CREDENTIALS_CONFIG, CREDENTIALS_DS } from '../credentials.tokens';
import { NameTakenError } from '../names/names.errors';
import { CreateUserUseCase } from './create-user.use-case';
import { UserEntity } from './user.entity';
import { toUserView } from './user.view';
import { EmailRequiredError } from './users.errors';

/**
 * SCIM provisioning of a user (decision 0420): the user holding the name in the shared name
 * space (any case, decision 0009) is linked as it is; otherwise a new user is created with the
 * e-mail the identity provider sent. A name an organization holds is taken (409).
 */
@Injectable()
export class ProvisionUserUseCase {
  constructor(
    @InjectDataSource(CREDENTIALS_DS) private readonly ds: DataSource,
    @Inject(CREDENTIALS_CONFIG) private readonly config: CredentialsConfig,
    private readonly createUser: CreateUserUseCase,
  ) {}

  async execute(dto: ProvisionUserRpc): Promise<ProvisionedUser> {
    const existing = await this.find(dto.name);
    if (existing) return { user: toUserView(existing, this.config.publicUrl), created: false };
    if (!dto.email) throw new EmailRequiredError(dto.name);
    try {
      return { user: await this.createUser.execute({ name: dto.name, email: dto.email, fullname: dto.fullname }), created: true };
    } catch (e) {
      // Another provisioning of the same user won the race: link that one.
      const raced = e instanceof NameTakenError ? await this.find(dto.name) : null;
      if (raced) return { user: toUserView(raced, this.config.publicUrl), created: false };
      throw e;
    }
  }

  private find(name: string): Promise<UserEntity | null> {
    return this.ds.getRepository(UserEntity).createQueryBuilder('u').where('lower(u.name) = lower(:name)', { name }).getOne();
  }
}

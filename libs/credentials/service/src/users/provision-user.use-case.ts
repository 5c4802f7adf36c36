import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource } from 'typeorm';
import { type ProvisionedUser, type ProvisionUserRpc, CredentialsRpc } from '@hub/credentials-contract';
import { newObjectId, uniqueViolation } from '@hub/persistence';
import { type CredentialsConfig } from '../credentials.config';
import { CREDENTIALS_CONFIG, CREDENTIALS_DS } from '../credentials.di';
import { claimName } from '../names/claim-name';
import { NameTakenError } from '../names/names.errors';
import { managedName } from './managed-name';
import { toUserView, UsersStore } from './users.store';
import { EmailRequiredError } from './users.errors';
import { RpcHandler } from '@hub/messaging';

/** Taken names tried with a counter before giving up (each is one insert). */
const ATTEMPTS = 50;

/**
 * SCIM provisioning of a user (decision 0421): a new account managed by the organization, never
 * an existing one (a matching name alone adopts nobody), except the organization's own account it
 * names as `formerUserId` (the same userName provisioned again after a deprovisioning). Its hub
 * name is derived from the identity provider's userName and made unique with a counter; its
 * e-mail need not be unique.
 */
@Injectable()
export class ProvisionUserUseCase {
  constructor(
    @InjectDataSource(CREDENTIALS_DS) private readonly ds: DataSource,
    @Inject(CREDENTIALS_CONFIG) private readonly config: CredentialsConfig,
  ) {}

  @RpcHandler(CredentialsRpc.ProvisionUser)
  async execute(dto: ProvisionUserRpc): Promise<ProvisionedUser> {
    const email = dto.email ?? (/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(dto.userName) ? dto.userName : undefined);
    if (!email) throw new EmailRequiredError(dto.userName);
    if (dto.formerUserId) {
      // Deprovisioned, then provisioned again by the same organization: the same account comes back.
      const former = await UsersStore.findById(this.ds.manager, dto.formerUserId);
      if (former?.managedByOrgId === dto.organizationId)
        return { user: toUserView(former, this.config.publicUrl), created: false };
    }
    for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
      const name = managedName(dto.userName, dto.organization, attempt);
      const id = newObjectId();
      try {
        // The user and its claim on the shared name space commit together.
        await this.ds.transaction(async (m) => {
          await UsersStore.insert(m, {
            id,
            name,
            email,
            fullname: dto.fullname || name,
            isPro: false,
            managedByOrgId: dto.organizationId,
          });
          await claimName(m, name, 'user', id);
        });
      } catch (e) {
        if (e instanceof NameTakenError || uniqueViolation(e)) continue;
        throw e;
      }
      const saved = await UsersStore.byId(this.ds.manager, id);
      return { user: toUserView(saved, this.config.publicUrl), created: true };
    }
    throw new NameTakenError(managedName(dto.userName, dto.organization));
  }
}

import { type DynamicModule, Module } from '@nestjs/common';
import { persistenceOptions, ServicePersistenceModule, type ServicePersistenceOptions } from '@hub/persistence';
import { ORGANIZATIONS_ENTITIES } from './entities';
import { ORGANIZATIONS_MIGRATIONS } from './migrations';
import { type OrganizationsConfig } from './organizations.config';
import { OrganizationsHandler } from './organizations.handler';
import { ORGANIZATIONS_CONFIG, ORGANIZATIONS_DS } from './organizations.tokens';
import { CreateOrganizationUseCase } from './use-cases/create-organization.use-case';
import { MembershipUseCases } from './use-cases/membership.use-cases';

export const ORGANIZATIONS_SCHEMA = 'organizations';

export function organizationsPersistence(config: OrganizationsConfig): ServicePersistenceOptions {
  return persistenceOptions({ name: ORGANIZATIONS_DS, schema: ORGANIZATIONS_SCHEMA, entities: ORGANIZATIONS_ENTITIES, migrations: ORGANIZATIONS_MIGRATIONS }, config);
}

/** Organizations, plans, members and roles (the directory part). */
@Module({})
export class OrganizationsModule {
  static forRoot(config: OrganizationsConfig): DynamicModule {
    return {
      module: OrganizationsModule,
      imports: [ServicePersistenceModule.forService(organizationsPersistence(config))],
      controllers: [OrganizationsHandler],
      providers: [{ provide: ORGANIZATIONS_CONFIG, useValue: config }, CreateOrganizationUseCase, MembershipUseCases],
    };
  }
}

import { type DynamicModule, Module } from '@nestjs/common';
import { OutboxModule } from '@hub/messaging';
import { persistenceOptions, ServicePersistenceModule, type ServicePersistenceOptions } from '@hub/persistence';
import { ORGANIZATIONS_MIGRATIONS } from './migrations';
import { type OrganizationsConfig } from './organizations.config';
import { ORGANIZATIONS_CONFIG, ORGANIZATIONS_DS } from './organizations.di';
import { ORGANIZATIONS_ENTITIES } from './organizations.entities';

export const ORGANIZATIONS_SCHEMA = 'organizations';

export function organizationsPersistence(config: OrganizationsConfig): ServicePersistenceOptions {
  return persistenceOptions(
    {
      name: ORGANIZATIONS_DS,
      schema: ORGANIZATIONS_SCHEMA,
      entities: ORGANIZATIONS_ENTITIES,
      migrations: ORGANIZATIONS_MIGRATIONS,
    },
    config,
  );
}

/**
 * What every area of the service shares: the DataSource of schema `organizations`, its outbox and
 * relay, and the config (`ORGANIZATIONS_CONFIG`). Made once by `OrganizationsModule.forRoot`, and that
 * one object is imported by every area module (Nest keys a dynamic module by its reference: one instance).
 */
@Module({})
export class OrganizationsCoreModule {
  static forRoot(config: OrganizationsConfig): DynamicModule {
    const outbox = OutboxModule.forService({ dataSource: ORGANIZATIONS_DS, schema: ORGANIZATIONS_SCHEMA });
    return {
      module: OrganizationsCoreModule,
      imports: [ServicePersistenceModule.forService(organizationsPersistence(config)), outbox],
      providers: [{ provide: ORGANIZATIONS_CONFIG, useValue: config }],
      exports: [ORGANIZATIONS_CONFIG, outbox],
    };
  }
}

import { type DynamicModule, Module } from '@nestjs/common';
import { CreateOrganizationUseCase } from './create-organization.use-case';
import { ListOrganizationsUseCase } from './list-organizations.use-case';
import { OrganizationNamesReconciler } from './organization-names.reconciler';

/** Organizations with plans: create, the admin list, the names registered in credentials at start. */
@Module({})
export class OrganizationsDirectoryModule {
  /** `core`: the service's shared `OrganizationsCoreModule` (DataSource, outbox, config). */
  static register(core: DynamicModule): DynamicModule {
    return {
      module: OrganizationsDirectoryModule,
      imports: [core],
      providers: [CreateOrganizationUseCase, ListOrganizationsUseCase, OrganizationNamesReconciler],
    };
  }
}

import { type DynamicModule, Module } from '@nestjs/common';
import { AddResourceGroupReposUseCase } from './add-resource-group-repos.use-case';
import { AddResourceGroupUsersUseCase } from './add-resource-group-users.use-case';
import { CreateResourceGroupUseCase } from './create-resource-group.use-case';
import { GetResourceGroupUseCase } from './get-resource-group.use-case';
import { RemoveResourceGroupUserUseCase } from './remove-resource-group-user.use-case';
import { UpdateResourceGroupUseCase } from './update-resource-group.use-case';

/** Resource groups, their users (roles) and repositories. */
@Module({})
export class ResourceGroupsModule {
  /** `core`: the service's shared `OrganizationsCoreModule` (DataSource, outbox, config). */
  static register(core: DynamicModule): DynamicModule {
    return {
      module: ResourceGroupsModule,
      imports: [core],
      providers: [
        CreateResourceGroupUseCase,
        AddResourceGroupUsersUseCase,
        AddResourceGroupReposUseCase,
        UpdateResourceGroupUseCase,
        GetResourceGroupUseCase,
        RemoveResourceGroupUserUseCase,
      ],
    };
  }
}

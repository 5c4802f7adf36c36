import { type DynamicModule, Module } from '@nestjs/common';
import { CreateScimGroupUseCase } from './create-scim-group.use-case';
import { CreateScimUserUseCase } from './create-scim-user.use-case';
import { DeleteScimGroupUseCase } from './delete-scim-group.use-case';
import { DeleteScimUserUseCase } from './delete-scim-user.use-case';
import { GetScimGroupUseCase } from './get-scim-group.use-case';
import { GetScimUserUseCase } from './get-scim-user.use-case';
import { LinkScimUserUseCase } from './link-scim-user.use-case';
import { ListScimGroupsUseCase } from './list-scim-groups.use-case';
import { ListScimUsersUseCase } from './list-scim-users.use-case';
import { PatchScimGroupUseCase } from './patch-scim-group.use-case';
import { PatchScimUserUseCase } from './patch-scim-user.use-case';
import { ReplaceScimGroupUseCase } from './replace-scim-group.use-case';
import { ReplaceScimUserUseCase } from './replace-scim-user.use-case';

/**
 * SCIM 2.0 provisioning (decision 0420): Users and Groups.
 * Each use case serves its RPC itself (`@RpcHandler` on `execute`, decision 0002): no handler file.
 */
@Module({})
export class ScimModule {
  /** `core`: the service's shared `OrganizationsCoreModule` (DataSource, outbox, config). */
  static register(core: DynamicModule): DynamicModule {
    return {
      module: ScimModule,
      imports: [core],
      providers: [
        ListScimUsersUseCase,
        GetScimUserUseCase,
        CreateScimUserUseCase,
        ReplaceScimUserUseCase,
        PatchScimUserUseCase,
        DeleteScimUserUseCase,
        LinkScimUserUseCase,
        ListScimGroupsUseCase,
        GetScimGroupUseCase,
        CreateScimGroupUseCase,
        ReplaceScimGroupUseCase,
        PatchScimGroupUseCase,
        DeleteScimGroupUseCase,
      ],
    };
  }
}

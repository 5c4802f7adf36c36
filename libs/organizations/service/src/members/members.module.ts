import { type DynamicModule, Module } from '@nestjs/common';
import { AddMemberUseCase } from './add-member.use-case';
import { ChangeMemberRoleUseCase } from './change-member-role.use-case';
import { GetMemberAccessUseCase } from './get-member-access.use-case';
import { ListMembersUseCase } from './list-members.use-case';
import { ListUserMembershipsUseCase } from './list-user-memberships.use-case';
import { RemoveMemberUseCase } from './remove-member.use-case';

/**
 * Members with roles, a user's access to one organization and memberships; removal and role change.
 * Each use case serves its RPC itself (`@RpcHandler` on `execute`, decision 0002): no handler file.
 */
@Module({})
export class MembersModule {
  /** `core`: the service's shared `OrganizationsCoreModule` (DataSource, outbox, config). */
  static register(core: DynamicModule): DynamicModule {
    return {
      module: MembersModule,
      imports: [core],
      providers: [
        AddMemberUseCase,
        ListMembersUseCase,
        GetMemberAccessUseCase,
        ListUserMembershipsUseCase,
        RemoveMemberUseCase,
        ChangeMemberRoleUseCase,
      ],
    };
  }
}

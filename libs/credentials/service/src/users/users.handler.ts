import { AdminNamesQueryDto, type AdminPage } from '@hub/contracts';
import {
  AdminCreateUserDto,
  type AdminUserView,
  CredentialsRpc,
  GetUserRpc,
  type ProvisionedUser,
  ProvisionUserRpc,
  type UserView,
} from '@hub/credentials-contract';
import { RpcController, RpcHandler } from '@hub/messaging';
import { CreateUserUseCase } from './create-user.use-case';
import { GetUserUseCase } from './get-user.use-case';
import { ListUsersUseCase } from './list-users.use-case';
import { ProvisionUserUseCase } from './provision-user.use-case';

@RpcController()
export class UsersHandler {
  constructor(
    private readonly createUser: CreateUserUseCase,
    private readonly getUser: GetUserUseCase,
    private readonly provisionUser: ProvisionUserUseCase,
    private readonly listUsers: ListUsersUseCase,
  ) {}

  @RpcHandler(CredentialsRpc.CreateUser)
  onCreateUser(dto: AdminCreateUserDto): Promise<UserView> {
    return this.createUser.execute(dto);
  }

  @RpcHandler(CredentialsRpc.GetUser)
  onGetUser(dto: GetUserRpc): Promise<UserView> {
    return this.getUser.execute(dto.name);
  }

  @RpcHandler(CredentialsRpc.ListUsers)
  onListUsers(dto: AdminNamesQueryDto): Promise<AdminPage<AdminUserView>> {
    return this.listUsers.execute(dto);
  }

  @RpcHandler(CredentialsRpc.ProvisionUser)
  onProvisionUser(dto: ProvisionUserRpc): Promise<ProvisionedUser> {
    return this.provisionUser.execute(dto);
  }
}

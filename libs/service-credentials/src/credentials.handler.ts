import { MessagePattern } from '@nestjs/microservices';
import {
  AdminCreateUserDto, type AuthInfo, type CreatedToken, CreateTokenRpc, CredentialsRpc, FindTokenRpc, GetUserRpc,
  type RequestContext, RevokeForOrgRpc, RevokeLeakedRpc, type TokenView, type UserView, VerifyTokenRpc,
} from '@hub/contracts';
import { RpcController, RpcCtx, RpcPayload } from '@hub/messaging';
import { CreateTokenUseCase } from './use-cases/create-token.use-case';
import { CreateUserUseCase } from './use-cases/create-user.use-case';
import { FindTokenUseCase } from './use-cases/find-token.use-case';
import { GetUserUseCase } from './use-cases/get-user.use-case';
import { RevokeLeakedTokensUseCase } from './use-cases/revoke-leaked-tokens.use-case';
import { type OrgRevocationView, RevokeTokenForOrgUseCase } from './use-cases/revoke-token-for-org.use-case';
import { VerifyTokenUseCase } from './use-cases/verify-token.use-case';

@RpcController()
export class CredentialsHandler {
  constructor(
    private readonly createUser: CreateUserUseCase,
    private readonly getUser: GetUserUseCase,
    private readonly createToken: CreateTokenUseCase,
    private readonly verifyToken: VerifyTokenUseCase,
    private readonly findToken: FindTokenUseCase,
    private readonly revokeLeaked: RevokeLeakedTokensUseCase,
    private readonly revokeForOrg: RevokeTokenForOrgUseCase,
  ) {}

  @MessagePattern(CredentialsRpc.CreateUser)
  onCreateUser(@RpcPayload() dto: AdminCreateUserDto): Promise<UserView> {
    return this.createUser.execute(dto);
  }

  @MessagePattern(CredentialsRpc.GetUser)
  onGetUser(@RpcPayload() dto: GetUserRpc): Promise<UserView> {
    return this.getUser.execute(dto.name);
  }

  @MessagePattern(CredentialsRpc.CreateToken)
  onCreateToken(@RpcPayload() dto: CreateTokenRpc): Promise<CreatedToken> {
    return this.createToken.execute(dto);
  }

  @MessagePattern(CredentialsRpc.VerifyToken)
  onVerifyToken(@RpcPayload() dto: VerifyTokenRpc): Promise<AuthInfo> {
    return this.verifyToken.execute(dto.token);
  }

  @MessagePattern(CredentialsRpc.FindToken)
  onFindToken(@RpcPayload() dto: FindTokenRpc): Promise<TokenView> {
    return this.findToken.execute(dto);
  }

  @MessagePattern(CredentialsRpc.RevokeLeaked)
  async onRevokeLeaked(@RpcPayload() dto: RevokeLeakedRpc): Promise<{ accepted: true }> {
    await this.revokeLeaked.execute(dto.credentials);
    return { accepted: true };
  }

  @MessagePattern(CredentialsRpc.RevokeForOrg)
  onRevokeForOrg(@RpcPayload() dto: RevokeForOrgRpc, @RpcCtx() ctx: RequestContext): Promise<OrgRevocationView> {
    return this.revokeForOrg.execute(dto, ctx);
  }
}

import { AdminListTokensRpc, type AdminPage, type RequestContext } from '@hub/contracts';
import {
  AdminRevokeTokenRpc,
  type AdminTokenView,
  type AuthInfo,
  type CreatedToken,
  type OrgRevocationView,
  CreateTokenRpc,
  CredentialsRpc,
  RevokeMemberTokenRpc,
  RevokeLeakedRpc,
  VerifyTokenRpc,
} from '@hub/credentials-contract';
import { RpcController, RpcHandler } from '@hub/messaging';
import { CreateTokenUseCase } from './create-token.use-case';
import { ListUserTokensUseCase } from './list-user-tokens.use-case';
import { RevokeLeakedTokensUseCase } from './revoke-leaked-tokens.use-case';
import { RevokeMemberTokenUseCase } from './revoke-member-token.use-case';
import { RevokeTokenByIdUseCase } from './revoke-token-by-id.use-case';
import { VerifyTokenUseCase } from './verify-token.use-case';

@RpcController()
export class TokensHandler {
  constructor(
    private readonly createToken: CreateTokenUseCase,
    private readonly verifyToken: VerifyTokenUseCase,
    private readonly revokeLeaked: RevokeLeakedTokensUseCase,
    private readonly revokeMemberToken: RevokeMemberTokenUseCase,
    private readonly listTokens: ListUserTokensUseCase,
    private readonly revokeById: RevokeTokenByIdUseCase,
  ) {}

  @RpcHandler(CredentialsRpc.CreateToken)
  onCreateToken(dto: CreateTokenRpc): Promise<CreatedToken> {
    return this.createToken.execute(dto);
  }

  @RpcHandler(CredentialsRpc.ListTokens)
  onListTokens(dto: AdminListTokensRpc): Promise<AdminPage<AdminTokenView>> {
    return this.listTokens.execute(dto);
  }

  @RpcHandler(CredentialsRpc.RevokeById)
  onRevokeById(dto: AdminRevokeTokenRpc): Promise<AdminTokenView> {
    return this.revokeById.execute(dto);
  }

  @RpcHandler(CredentialsRpc.VerifyToken)
  onVerifyToken(dto: VerifyTokenRpc): Promise<AuthInfo> {
    return this.verifyToken.execute(dto.tokenHash);
  }

  @RpcHandler(CredentialsRpc.RevokeLeaked)
  async onRevokeLeaked(dto: RevokeLeakedRpc): Promise<{ accepted: true }> {
    await this.revokeLeaked.execute(dto.credentials);
    return { accepted: true };
  }

  @RpcHandler(CredentialsRpc.RevokeForOrg)
  onRevokeForOrg(dto: RevokeMemberTokenRpc, ctx: RequestContext): Promise<OrgRevocationView> {
    return this.revokeMemberToken.execute(dto, ctx);
  }
}

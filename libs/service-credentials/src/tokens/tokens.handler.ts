import {
  type AuthInfo, type CreatedToken, type OrgRevocationView, CreateTokenRpc, CredentialsRpc, FindTokenRpc, type RequestContext, RevokeForOrgRpc,
  RevokeLeakedRpc, type TokenView, VerifyTokenRpc,
} from '@hub/contracts';
import { RpcController, RpcHandler } from '@hub/messaging';
import { CreateTokenUseCase } from './create-token.use-case';
import { FindTokenUseCase } from './find-token.use-case';
import { RevokeLeakedTokensUseCase } from './revoke-leaked-tokens.use-case';
import { RevokeTokenForOrgUseCase } from './revoke-token-for-org.use-case';
import { VerifyTokenUseCase } from './verify-token.use-case';

@RpcController()
export class TokensHandler {
  constructor(
    private readonly createToken: CreateTokenUseCase,
    private readonly verifyToken: VerifyTokenUseCase,
    private readonly findToken: FindTokenUseCase,
    private readonly revokeLeaked: RevokeLeakedTokensUseCase,
    private readonly revokeForOrg: RevokeTokenForOrgUseCase,
  ) {}

  @RpcHandler(CredentialsRpc.CreateToken)
  onCreateToken(dto: CreateTokenRpc): Promise<CreatedToken> {
    return this.createToken.execute(dto);
  }

  @RpcHandler(CredentialsRpc.VerifyToken)
  onVerifyToken(dto: VerifyTokenRpc): Promise<AuthInfo> {
    return this.verifyToken.execute(dto.token);
  }

  @RpcHandler(CredentialsRpc.FindToken)
  onFindToken(dto: FindTokenRpc): Promise<TokenView> {
    return this.findToken.execute(dto);
  }

  @RpcHandler(CredentialsRpc.RevokeLeaked)
  async onRevokeLeaked(dto: RevokeLeakedRpc): Promise<{ accepted: true }> {
    await this.revokeLeaked.execute(dto.credentials);
    return { accepted: true };
  }

  @RpcHandler(CredentialsRpc.RevokeForOrg)
  onRevokeForOrg(dto: RevokeForOrgRpc, ctx: RequestContext): Promise<OrgRevocationView> {
    return this.revokeForOrg.execute(dto, ctx);
  }
}

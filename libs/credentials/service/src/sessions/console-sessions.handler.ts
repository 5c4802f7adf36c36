import { CreateSessionRpc, CredentialsRpc, type SessionInfo, SessionRefRpc } from '@hub/credentials-contract';
import { RpcController, RpcHandler } from '@hub/messaging';
import { CreateSessionUseCase } from './create-session.use-case';
import { EndSessionUseCase } from './end-session.use-case';
import { VerifySessionUseCase } from './verify-session.use-case';

@RpcController()
export class ConsoleSessionsHandler {
  constructor(
    private readonly createSession: CreateSessionUseCase,
    private readonly verifySession: VerifySessionUseCase,
    private readonly endSession: EndSessionUseCase,
  ) {}

  @RpcHandler(CredentialsRpc.CreateSession)
  onCreate(dto: CreateSessionRpc): Promise<SessionInfo> {
    return this.createSession.execute(dto);
  }

  @RpcHandler(CredentialsRpc.VerifySession)
  onVerify(dto: SessionRefRpc): Promise<SessionInfo> {
    return this.verifySession.execute(dto.sessionHash);
  }

  @RpcHandler(CredentialsRpc.EndSession)
  onEnd(dto: SessionRefRpc): Promise<{ ended: boolean }> {
    return this.endSession.execute(dto.sessionHash);
  }
}

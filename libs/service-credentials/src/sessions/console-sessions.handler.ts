import { CreateSessionRpc, CredentialsRpc, type SessionInfo, SessionRefRpc } from '@hub/contracts';
import { RpcController, RpcHandler } from '@hub/messaging';
import { ConsoleSessionsUseCases } from './console-sessions.use-cases';

@RpcController()
export class ConsoleSessionsHandler {
  constructor(private readonly sessions: ConsoleSessionsUseCases) {}

  @RpcHandler(CredentialsRpc.CreateSession)
  onCreate(dto: CreateSessionRpc): Promise<SessionInfo> {
    return this.sessions.create(dto);
  }

  @RpcHandler(CredentialsRpc.VerifySession)
  onVerify(dto: SessionRefRpc): Promise<SessionInfo> {
    return this.sessions.verify(dto.sessionHash);
  }

  @RpcHandler(CredentialsRpc.EndSession)
  onEnd(dto: SessionRefRpc): Promise<{ ended: boolean }> {
    return this.sessions.end(dto.sessionHash);
  }
}

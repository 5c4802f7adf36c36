import { CredentialsRpc, ReleaseNameRpc, ReserveNameRpc } from '@hub/contracts';
import { RpcController, RpcHandler } from '@hub/messaging';
import { NameRegistryUseCases } from './name-registry.use-cases';

@RpcController()
export class NamesHandler {
  constructor(private readonly names: NameRegistryUseCases) {}

  @RpcHandler(CredentialsRpc.ReserveName)
  onReserve(dto: ReserveNameRpc): Promise<{ reserved: true }> {
    return this.names.reserve(dto);
  }

  @RpcHandler(CredentialsRpc.ReleaseName)
  onRelease(dto: ReleaseNameRpc): Promise<{ released: boolean }> {
    return this.names.release(dto);
  }
}

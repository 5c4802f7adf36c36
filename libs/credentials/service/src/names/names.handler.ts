import { CredentialsRpc, ReleaseNameRpc, ReserveNameRpc } from '@hub/credentials-contract';
import { RpcController, RpcHandler } from '@hub/messaging';
import { ReleaseNameUseCase } from './release-name.use-case';
import { ReserveNameUseCase } from './reserve-name.use-case';

@RpcController()
export class NamesHandler {
  constructor(
    private readonly reserveName: ReserveNameUseCase,
    private readonly releaseName: ReleaseNameUseCase,
  ) {}

  @RpcHandler(CredentialsRpc.ReserveName)
  onReserve(dto: ReserveNameRpc): Promise<{ reserved: true }> {
    return this.reserveName.execute(dto);
  }

  @RpcHandler(CredentialsRpc.ReleaseName)
  onRelease(dto: ReleaseNameRpc): Promise<{ released: boolean }> {
    return this.releaseName.execute(dto);
  }
}

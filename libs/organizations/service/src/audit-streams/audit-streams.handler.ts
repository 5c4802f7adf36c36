import {
  type AuditStreamDeliveriesView,
  AuditStreamOrgRpc,
  AuditStreamRefRpc,
  AuditStreamsRpc,
  type AuditStreamTestView,
  type AuditStreamView,
  CreateAuditStreamRpc,
  ListAuditStreamDeliveriesRpc,
  SetAuditStreamStateRpc,
  UpdateAuditStreamRpc,
} from '@hub/organizations-contract';
import { RpcController, RpcHandler } from '@hub/messaging';
import { CreateAuditStreamUseCase } from './create-audit-stream.use-case';
import {
  DeleteAuditStreamUseCase,
  GetAuditStreamUseCase,
  ListAuditStreamDeliveriesUseCase,
  ListAuditStreamsUseCase,
  SetAuditStreamStateUseCase,
} from './manage-audit-streams.use-cases';
import { TestAuditStreamUseCase } from './test-audit-stream.use-case';
import { UpdateAuditStreamUseCase } from './update-audit-stream.use-case';

@RpcController()
export class AuditStreamsHandler {
  constructor(
    private readonly listStreams: ListAuditStreamsUseCase,
    private readonly createStream: CreateAuditStreamUseCase,
    private readonly getStream: GetAuditStreamUseCase,
    private readonly updateStream: UpdateAuditStreamUseCase,
    private readonly deleteStream: DeleteAuditStreamUseCase,
    private readonly setState: SetAuditStreamStateUseCase,
    private readonly testStream: TestAuditStreamUseCase,
    private readonly listDeliveries: ListAuditStreamDeliveriesUseCase,
  ) {}

  @RpcHandler(AuditStreamsRpc.List)
  onList(dto: AuditStreamOrgRpc): Promise<AuditStreamView[]> {
    return this.listStreams.execute(dto);
  }

  @RpcHandler(AuditStreamsRpc.Create)
  onCreate(dto: CreateAuditStreamRpc): Promise<AuditStreamView> {
    return this.createStream.execute(dto);
  }

  @RpcHandler(AuditStreamsRpc.Get)
  onGet(dto: AuditStreamRefRpc): Promise<AuditStreamView> {
    return this.getStream.execute(dto);
  }

  @RpcHandler(AuditStreamsRpc.Update)
  onUpdate(dto: UpdateAuditStreamRpc): Promise<AuditStreamView> {
    return this.updateStream.execute(dto);
  }

  @RpcHandler(AuditStreamsRpc.Delete)
  onDelete(dto: AuditStreamRefRpc): Promise<{ deleted: true }> {
    return this.deleteStream.execute(dto);
  }

  @RpcHandler(AuditStreamsRpc.SetState)
  onSetState(dto: SetAuditStreamStateRpc): Promise<AuditStreamView> {
    return this.setState.execute(dto);
  }

  @RpcHandler(AuditStreamsRpc.Test)
  onTest(dto: AuditStreamRefRpc): Promise<AuditStreamTestView> {
    return this.testStream.execute(dto);
  }

  @RpcHandler(AuditStreamsRpc.ListDeliveries)
  onListDeliveries(dto: ListAuditStreamDeliveriesRpc): Promise<AuditStreamDeliveriesView> {
    return this.listDeliveries.execute(dto);
  }
}

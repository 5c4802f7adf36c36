import {
  ClaimPaperRpc,
  type ClaimPaperView,
  type PaperView,
  PapersRpc,
  AdminCreatePaperDto,
} from '@hub/organizations-contract';
import { RpcController, RpcHandler } from '@hub/messaging';
import { ClaimPaperUseCase } from './claim-paper.use-case';
import { UpsertPaperUseCase } from './upsert-paper.use-case';

@RpcController()
export class PapersHandler {
  constructor(
    private readonly upsertPaper: UpsertPaperUseCase,
    private readonly claimPaper: ClaimPaperUseCase,
  ) {}

  @RpcHandler(PapersRpc.Upsert)
  onUpsert(dto: AdminCreatePaperDto): Promise<PaperView> {
    return this.upsertPaper.execute(dto);
  }

  @RpcHandler(PapersRpc.Claim)
  onClaim(dto: ClaimPaperRpc): Promise<ClaimPaperView> {
    return this.claimPaper.execute(dto);
  }
}

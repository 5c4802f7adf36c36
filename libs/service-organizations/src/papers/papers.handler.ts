import { AdminCreatePaperDto, ClaimPaperRpc, type ClaimPaperView, type PaperView, PapersRpc } from '@hub/contracts';
import { RpcController, RpcHandler } from '@hub/messaging';
import { PaperUseCases } from './papers.use-cases';

@RpcController()
export class PapersHandler {
  constructor(private readonly papers: PaperUseCases) {}

  @RpcHandler(PapersRpc.Upsert)
  onUpsert(dto: AdminCreatePaperDto): Promise<PaperView> {
    return this.papers.upsert(dto);
  }

  @RpcHandler(PapersRpc.Claim)
  onClaim(dto: ClaimPaperRpc): Promise<ClaimPaperView> {
    return this.papers.claim(dto);
  }
}

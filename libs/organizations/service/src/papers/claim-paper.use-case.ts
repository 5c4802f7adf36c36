import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource } from 'typeorm';
import { type ClaimPaperRpc, type ClaimPaperView, PapersRpc } from '@hub/organizations-contract';
import { ORGANIZATIONS_DS } from '../organizations.di';
import {
  PaperAlreadyClaimedError,
  PaperAuthorClaimedError,
  PaperAuthorNotFoundError,
  PaperNotFoundError,
} from './papers.errors';
import { PapersStore } from './papers.store';
import { RpcHandler } from '@hub/messaging';

/**
 * A claim of a paper's author entry (decision 0410): an entry is claimed once (the same user
 * claiming it again is a success that changes nothing), a user claims at most one entry per
 * paper, an unknown paper or entry is 404. The gateway lets `targetUserId` name only the caller.
 */
@Injectable()
export class ClaimPaperUseCase {
  constructor(@InjectDataSource(ORGANIZATIONS_DS) private readonly ds: DataSource) {}

  @RpcHandler(PapersRpc.Claim)
  execute(dto: ClaimPaperRpc): Promise<ClaimPaperView> {
    return this.ds.transaction(async (m) => {
      if (!(await PapersStore.lock(m, dto.paperId))) throw new PaperNotFoundError(dto.paperId);
      const entry = await PapersStore.claimant(m, dto.paperId, dto.claimAuthorId);
      if (!entry) throw new PaperAuthorNotFoundError(dto.paperId, dto.claimAuthorId);
      const userId = dto.userId;
      if (entry.claimedBy === userId) return { ok: true, claimedPaperId: dto.paperId };
      if (entry.claimedBy) throw new PaperAuthorClaimedError(dto.paperId, dto.claimAuthorId);
      if (await PapersStore.hasClaimBy(m, dto.paperId, userId)) throw new PaperAlreadyClaimedError(dto.paperId);
      await PapersStore.claim(m, dto.paperId, dto.claimAuthorId, userId, dto.userName);
      return { ok: true, claimedPaperId: dto.paperId };
    });
  }
}

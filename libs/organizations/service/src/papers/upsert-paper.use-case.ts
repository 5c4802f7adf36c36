import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource } from 'typeorm';
import { PapersRpc, type PaperView, type AdminCreatePaperDto } from '@hub/organizations-contract';
import { newObjectId } from '@hub/persistence';
import { ORGANIZATIONS_DS } from '../organizations.di';
import { PapersStore } from './papers.store';
import { RpcHandler } from '@hub/messaging';

/** Adds a paper or replaces its title and entries; claims of entries that stay are kept (decision 0410). */
@Injectable()
export class UpsertPaperUseCase {
  constructor(@InjectDataSource(ORGANIZATIONS_DS) private readonly ds: DataSource) {}

  @RpcHandler(PapersRpc.Upsert)
  execute(dto: AdminCreatePaperDto): Promise<PaperView> {
    return this.ds.transaction(async (m) => {
      await PapersStore.upsert(m, dto.id, dto.title);
      const ids = dto.authors.map((a) => a._id ?? newObjectId());
      await PapersStore.deleteAuthorsExcept(m, dto.id, ids);
      for (const [i, a] of dto.authors.entries())
        await PapersStore.upsertAuthor(m, dto.id, ids[i] as string, i, a.name);
      const p = await PapersStore.get(m, dto.id);
      const authors = await PapersStore.authors(m, dto.id);
      return {
        id: p?.id ?? dto.id,
        title: p?.title ?? '',
        authors: authors.map((a) => ({
          _id: a.author_id,
          name: a.name,
          ...(a.claimed_by_name ? { claimedBy: a.claimed_by_name } : {}),
        })),
      };
    });
  }
}

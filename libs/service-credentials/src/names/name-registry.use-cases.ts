import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource } from 'typeorm';
import { type ReleaseNameRpc, type ReserveNameRpc } from '@hub/contracts';
import { CREDENTIALS_DS } from '../credentials.tokens';
import { claimName } from './account-names';

/** The name registry as other services use it: organizations reserve their names here. */
@Injectable()
export class NameRegistryUseCases {
  constructor(@InjectDataSource(CREDENTIALS_DS) private readonly ds: DataSource) {}

  async reserve(dto: ReserveNameRpc): Promise<{ reserved: true }> {
    await this.ds.transaction((m) => claimName(m, dto.name, dto.kind, dto.ownerId));
    return { reserved: true };
  }

  /** Undoes a reservation whose organization was never created. Users' names are never released here. */
  async release(dto: ReleaseNameRpc): Promise<{ released: boolean }> {
    const rows: unknown[] = await this.ds.query(
      `DELETE FROM credentials.account_names WHERE owner_id = $1 AND kind = 'organization' RETURNING owner_id`,
      [dto.ownerId],
    );
    return { released: rows.length > 0 };
  }
}

import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';
import { type AccountKind } from '@hub/contracts';

/**
 * The one name space of users and organizations: `name_key` is the lower-cased name, so `Alice`
 * cannot join `alice`, nor an organization a user of the same name (they share /avatars/<name>.svg).
 */
@Entity({ name: 'account_names' })
export class AccountNameEntity {
  @PrimaryColumn({ name: 'name_key', type: 'varchar', length: 96 })
  nameKey!: string;

  @Column({ type: 'varchar', length: 96 })
  name!: string;

  @Column({ type: 'varchar', length: 12 })
  kind!: AccountKind;

  @Column({ name: 'owner_id', type: 'char', length: 24, unique: true })
  ownerId!: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}

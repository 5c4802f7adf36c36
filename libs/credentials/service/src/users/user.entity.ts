import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

@Entity({ name: 'users' })
export class UserEntity {
  @PrimaryColumn({ type: 'char', length: 24 })
  id!: string;

  @Column({ type: 'varchar', length: 96, unique: true })
  name!: string;

  @Column({ type: 'varchar', length: 254 })
  email!: string;

  @Column({ type: 'varchar', length: 200, default: '' })
  fullname!: string;

  @Column({ name: 'is_pro', type: 'boolean', default: false })
  isPro!: boolean;

  /** The organization whose SCIM create made this account (decision 0421); null for the hub's own accounts. */
  @Column({ name: 'managed_by_org_id', type: 'char', length: 24, nullable: true })
  managedByOrgId!: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}

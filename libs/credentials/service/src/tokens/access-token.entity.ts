import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';
import { type TokenRole } from '@hub/contracts';

/** Only the SHA-256 of a token is kept, plus its last four characters for people to recognise it. */
@Entity({ name: 'access_tokens' })
export class AccessTokenEntity {
  @PrimaryColumn({ type: 'char', length: 24 })
  id!: string;

  @Index()
  @Column({ name: 'user_id', type: 'char', length: 24 })
  userId!: string;

  @Column({ name: 'token_hash', type: 'char', length: 64, unique: true })
  tokenHash!: string;

  @Column({ type: 'char', length: 4 })
  last4!: string;

  @Column({ type: 'varchar', length: 16 })
  role!: TokenRole;

  @Column({ name: 'display_name', type: 'varchar', length: 100 })
  displayName!: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'last_used_at', type: 'timestamptz', nullable: true })
  lastUsedAt!: Date | null;

  @Column({ name: 'revoked_at', type: 'timestamptz', nullable: true })
  revokedAt!: Date | null;
}

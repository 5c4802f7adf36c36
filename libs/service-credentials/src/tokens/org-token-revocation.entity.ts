import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/** A token cut off from one organization; it keeps working elsewhere. */
@Entity({ name: 'org_token_revocations' })
export class OrgTokenRevocationEntity {
  @PrimaryColumn({ name: 'token_id', type: 'char', length: 24 })
  tokenId!: string;

  @PrimaryColumn({ name: 'organization_id', type: 'char', length: 24 })
  organizationId!: string;

  @Column({ name: 'organization_name', type: 'varchar', length: 96 })
  organizationName!: string;

  @Column({ name: 'revoked_by', type: 'char', length: 24, nullable: true })
  revokedBy!: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}

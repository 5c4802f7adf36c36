import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/** A user's role in an organization. The user name is a copy kept for display. */
@Entity({ name: 'members' })
export class MemberEntity {
  @PrimaryColumn({ name: 'organization_id', type: 'char', length: 24 })
  organizationId!: string;

  @PrimaryColumn({ name: 'user_id', type: 'char', length: 24 })
  userId!: string;

  @Column({ name: 'user_name', type: 'varchar', length: 96 })
  userName!: string;

  @Column({ type: 'varchar', length: 50 })
  role!: string;

  /** A SCIM-provisioned member the identity provider deactivated: not a member for any purpose until restored. */
  @Column({ type: 'boolean', default: false })
  suspended!: boolean;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}

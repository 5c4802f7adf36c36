import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';
import { type OrgPlan } from '@hub/contracts';

@Entity({ name: 'organizations' })
export class OrganizationEntity {
  @PrimaryColumn({ type: 'char', length: 24 })
  id!: string;

  @Column({ type: 'varchar', length: 96, unique: true })
  name!: string;

  @Column({ type: 'varchar', length: 200, default: '' })
  fullname!: string;

  @Column({ type: 'varchar', length: 20 })
  plan!: OrgPlan;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}

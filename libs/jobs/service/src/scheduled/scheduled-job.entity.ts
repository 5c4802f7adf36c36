import { Column, Entity, PrimaryColumn } from 'typeorm';
import { type CreateJobDto } from '@hub/jobs-contract';
import { type JobOwner } from '../jobs/job.entity';

@Entity({ name: 'scheduled_jobs' })
export class ScheduledJobEntity {
  @PrimaryColumn({ type: 'char', length: 24 }) id!: string;
  @Column({ type: 'varchar', length: 96 }) namespace!: string;
  @Column({ type: 'jsonb' }) owner!: JobOwner;
  @Column({ name: 'created_by', type: 'jsonb' }) createdBy!: { id: string; name: string };
  @Column({ type: 'varchar', length: 200 }) schedule!: string;
  @Column({ type: 'boolean' }) suspend!: boolean;
  @Column({ type: 'boolean' }) concurrency!: boolean;
  /** The job object without secret values (those are in `secretValues`). */
  @Column({ name: 'job_spec', type: 'jsonb' }) jobSpec!: Omit<CreateJobDto, 'secrets'>;
  @Column({ name: 'secret_values', type: 'jsonb' }) secretValues!: Record<string, string>;
  @Column({ name: 'next_run_at', type: 'timestamptz', nullable: true }) nextRunAt!: Date | null;
  @Column({ name: 'last_job_id', type: 'char', length: 24, nullable: true }) lastJobId!: string | null;
  @Column({ name: 'created_at', type: 'timestamptz' }) createdAt!: Date;
  @Column({ name: 'updated_at', type: 'timestamptz' }) updatedAt!: Date;
}

import { Column, Entity, PrimaryColumn } from 'typeorm';
import { type JobStage } from '@hub/contracts';
import { type CreateJobDto, type JobMetricsSample } from '@hub/jobs-contract';
import { type ProcessIdentity, type RunHandle } from './job-runs';

export interface JobOwner {
  id: string;
  name: string;
  type: 'user' | 'org';
}
export interface JobInitiator {
  type: 'user' | 'webhook' | 'scheduled-job';
  id: string;
  name?: string;
}

/** One job: what was asked (`spec`, secret values apart), who asked, and where it stands. */
@Entity({ name: 'jobs' })
export class JobEntity {
  @PrimaryColumn({ type: 'char', length: 24 }) id!: string;
  @Column({ type: 'varchar', length: 96 }) namespace!: string;
  @Column({ type: 'jsonb' }) owner!: JobOwner;
  @Column({ name: 'created_by', type: 'jsonb' }) createdBy!: { id: string; name: string };
  @Column({ type: 'jsonb' }) initiator!: JobInitiator;
  /** The 4.6 object as sent, with `secrets` removed (their values live in `secretValues`). */
  @Column({ type: 'jsonb' }) spec!: Omit<CreateJobDto, 'secrets'>;
  @Column({ name: 'secret_values', type: 'jsonb' }) secretValues!: Record<string, string>;
  /** Environment added by the caller service (e.g. WEBHOOK_*), over the spec's environment. */
  @Column({ name: 'extra_env', type: 'jsonb' }) extraEnv!: Record<string, string>;
  @Column({ type: 'jsonb' }) labels!: Record<string, string>;
  @Column({ type: 'varchar', length: 16 }) stage!: JobStage;
  @Column({ type: 'text', nullable: true }) message!: string | null;
  @Column({ name: 'failure_count', type: 'int' }) failureCount!: number;
  @Column({ type: 'int' }) attempts!: number;
  /** Which replica runs it (its process id token); null while nobody does. */
  @Column({ type: 'varchar', length: 64, nullable: true }) runner!: string | null;
  /** Where the current attempt runs and which service process drives it: a restart stops an orphan by it. */
  @Column({ name: 'run_handle', type: 'jsonb', nullable: true }) runHandle!:
    (RunHandle & { supervisor?: ProcessIdentity }) | null;
  /** Touched by the running replica; a stale one means that replica died (the sweeper settles the job). */
  @Column({ name: 'heartbeat_at', type: 'timestamptz', nullable: true }) heartbeatAt!: Date | null;
  /** The latest resource sample of the running job (written with the heartbeat; older rows hold fewer fields). */
  @Column({ type: 'jsonb', nullable: true }) metrics!: Partial<JobMetricsSample> | null;
  @Column({ name: 'created_at', type: 'timestamptz' }) createdAt!: Date;
  @Column({ name: 'updated_at', type: 'timestamptz' }) updatedAt!: Date;
  @Column({ name: 'started_at', type: 'timestamptz', nullable: true }) startedAt!: Date | null;
  @Column({ name: 'finished_at', type: 'timestamptz', nullable: true }) finishedAt!: Date | null;
}

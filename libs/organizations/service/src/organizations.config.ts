// Explicit type annotations matter: swc emits design:type (used for env conversion) only from them.
import { HubConfig, SecretBox } from '@hub/config';
import { IsInt, IsNumber, IsOptional, IsString, IsUrl, Matches, Max, Min, MinLength } from 'class-validator';

export class OrganizationsConfig extends HubConfig {
  /** Seals audit stream credentials at rest (decision 0411); without it no stream can be created. */
  @IsOptional()
  @IsString()
  @MinLength(16, { message: 'HUB_SECRET_KEY must be at least 16 characters' })
  HUB_SECRET_KEY?: string;

  /**
   * Days an organization's audit log keeps an event (decision 0206): the log is partitioned by
   * month, and a month is dropped once all of it is older than this.
   */
  @IsNumber()
  @Min(1)
  @Max(3650)
  HUB_AUDIT_RETENTION_DAYS: number = 180;

  /** Audit log streams an organization may have. */
  @IsInt()
  @Min(0)
  @Max(100)
  HUB_AUDIT_STREAMS_PER_ORG: number = 3;

  /** How often a stream sends what it holds when no full batch is waiting (ms). */
  @IsInt()
  @Min(50)
  @Max(60_000)
  HUB_AUDIT_STREAM_FLUSH_MS: number = 5000;

  /** Records per batch at most (Datadog takes 1,000 a request). */
  @IsInt()
  @Min(1)
  @Max(1000)
  HUB_AUDIT_STREAM_BATCH_MAX: number = 500;

  /** Days a paused or failing stream keeps what it has not sent; older events are dropped and reported. */
  @IsNumber()
  @Min(0.00001)
  @Max(365)
  HUB_AUDIT_STREAM_RETENTION_DAYS: number = 7;

  /** Seconds a stream may fail without a success before it is marked failing and its admins told. */
  @IsInt()
  @Min(1)
  HUB_AUDIT_STREAM_FAILING_AFTER_S: number = 3600;

  /** How long a replica holds a stream without renewing (ms): another takes it over after that. */
  @IsInt()
  @Min(500)
  @Max(120_000)
  HUB_AUDIT_STREAM_LEASE_MS: number = 15_000;

  /** Private networks streams may reach (CIDRs, comma separated), e.g. 127.0.0.1/32 in tests. Default: none. */
  @IsOptional()
  @Matches(/^[0-9a-fA-F.:/, ]*$/, { message: 'HUB_AUDIT_STREAM_ALLOWED_NETWORKS must be comma-separated CIDRs' })
  HUB_AUDIT_STREAM_ALLOWED_NETWORKS?: string;

  /** Datadog's intake base URL instead of `https://http-intake.logs.<site>` (a proxy, or a test's server). */
  @IsOptional()
  @IsUrl(
    { protocols: ['http', 'https'], require_protocol: true, require_tld: false },
    { message: 'HUB_AUDIT_STREAM_DATADOG_URL must be an http(s) URL' },
  )
  HUB_AUDIT_STREAM_DATADOG_URL?: string;

  /** The box sealing stream credentials, or null when HUB_SECRET_KEY is unset. */
  auditStreamBox(): SecretBox | null {
    return this.HUB_SECRET_KEY ? new SecretBox(this.HUB_SECRET_KEY, 'hub-audit-stream-credentials') : null;
  }
}

// Explicit type annotations matter: swc emits design:type (used for env conversion) only from them.
import { HubConfig } from '@hub/config';
import { IsInt, IsOptional, IsString, Matches, Max, Min, MinLength } from 'class-validator';

export class WebhooksConfig extends HubConfig {
  /** Key that encrypts webhook secrets at rest. The all-in-one hub keeps a generated one under HUB_DATA_DIR when unset. */
  @IsOptional()
  @IsString()
  @MinLength(16, { message: 'HUB_SECRET_KEY must be at least 16 characters' })
  HUB_SECRET_KEY?: string;

  /** Private networks deliveries may reach (CIDRs, comma separated), e.g. 127.0.0.1/32 in tests. Default: none. */
  @IsOptional()
  @Matches(/^[0-9a-fA-F.:/, ]*$/, { message: 'HUB_WEBHOOK_ALLOWED_NETWORKS must be comma-separated CIDRs' })
  HUB_WEBHOOK_ALLOWED_NETWORKS?: string;

  /** Pause before each retry, seconds, comma separated (±20 % jitter); one attempt more than listed. */
  @Matches(/^\d+(\.\d+)?(,\d+(\.\d+)?)*$/, { message: 'HUB_WEBHOOK_RETRY_SCHEDULE must be comma-separated seconds' })
  HUB_WEBHOOK_RETRY_SCHEDULE: string = '0,5,300,1800,7200,18000,36000,36000';

  @IsInt()
  @Min(100)
  @Max(60_000)
  HUB_WEBHOOK_TIMEOUT_MS: number = 10_000;

  /** A webhook failing with no success for this long is suspended (default 5 days). */
  @IsInt()
  @Min(1)
  HUB_WEBHOOK_SUSPEND_AFTER_SECONDS: number = 432_000;

  /** Or after this many failed attempts in a row, whichever comes first (0: time only). */
  @IsInt()
  @Min(0)
  HUB_WEBHOOK_SUSPEND_AFTER_FAILURES: number = 0;

  @IsInt()
  @Min(1)
  HUB_WEBHOOK_MAX_TRIGGERS_PER_DAY: number = 1000;

  @IsInt()
  @Min(1)
  HUB_WEBHOOK_LOG_RETENTION_DAYS: number = 30;

  /** Attempts in flight at once per process. */
  @IsInt()
  @Min(1)
  @Max(1000)
  HUB_WEBHOOK_CONCURRENCY: number = 128;

  /**
   * Attempts of one webhook in flight at once per process (decision 0505): a slow or failing
   * receiver holds at most this many delivery slots; the rest go round-robin to other webhooks.
   */
  @IsInt()
  @Min(1)
  @Max(1000)
  HUB_WEBHOOK_MAX_IN_FLIGHT_PER_WEBHOOK: number = 8;

  /**
   * Attempts of one user's webhooks in flight at once per process (decision 0505). Default: half of
   * HUB_WEBHOOK_CONCURRENCY, so one user never holds every slot.
   */
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(10_000)
  HUB_WEBHOOK_MAX_IN_FLIGHT_PER_USER?: number;

  /**
   * A webhook whose attempt failed pauses before its next (decision 0505, addendum): 250 ms,
   * doubling with each failure in a row up to this; then one attempt at a time until one succeeds.
   * 0: no pause (a failing webhook's due deliveries go as fast as its cap lets them).
   */
  @IsInt()
  @Min(0)
  @Max(3_600_000)
  HUB_WEBHOOK_FAILING_PAUSE_MAX_MS: number = 30_000;

  /** Recoveries one webhook may start per hour (decision 0505); past it a 429 naming this variable. */
  @IsInt()
  @Min(1)
  @Max(1000)
  HUB_WEBHOOK_MAX_RECOVERIES_PER_HOUR: number = 5;

  /** A delivery a recovery resent is left out of the webhook's recoveries for this long (decision 0505). */
  @IsInt()
  @Min(0)
  @Max(604_800)
  HUB_WEBHOOK_RECOVERY_COOLDOWN_SECONDS: number = 3600;

  /** How often an idle worker looks for due deliveries. */
  @IsInt()
  @Min(10)
  @Max(60_000)
  HUB_WEBHOOK_POLL_MS: number = 250;

  /** A claimed delivery returns to the queue after this long without an outcome (its process died). */
  @IsInt()
  @Min(1000)
  HUB_WEBHOOK_LEASE_MS: number = 30_000;

  /** Most webhooks one user may have; a create past it is a 409 naming this variable (decision 0015). */
  @IsInt()
  @Min(1)
  @Max(100_000)
  HUB_WEBHOOKS_MAX_PER_USER: number = 100;

  get maxInFlightPerUser(): number {
    return this.HUB_WEBHOOK_MAX_IN_FLIGHT_PER_USER ?? Math.ceil(this.HUB_WEBHOOK_CONCURRENCY / 2);
  }

  get retrySchedule(): number[] {
    return this.HUB_WEBHOOK_RETRY_SCHEDULE.split(',').map((s) => Number(s) * 1000);
  }
}

// Explicit type annotations matter: swc emits design:type (used for env conversion) only from them.
import { Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsOptional, IsString, Matches, Max, Min, MinLength } from 'class-validator';

const toBool = ({ value }: { value: unknown }): unknown =>
  typeof value === 'string' ? ['1', 'true', 'yes', 'on'].includes(value.toLowerCase()) : value;

/** Settings every app shares. Each variable is documented in docs/configuration.md. */
export class HubConfig {
  /** Postgres connection string; when absent the all-in-one hub runs an embedded PostgreSQL under HUB_DATA_DIR. */
  @IsOptional()
  @Matches(/^postgres(ql)?:\/\//, { message: 'DATABASE_URL must start with postgres:// or postgresql://' })
  DATABASE_URL?: string;

  /** NATS server(s), comma separated; when absent services talk in-process (all-in-one only). */
  @IsOptional()
  @IsString()
  NATS_URL?: string;

  /**
   * This app's NATS user and password (decision 0013: one user per app, its permissions
   * generated from the contracts). Required with NATS_URL when NODE_ENV=production.
   */
  @IsOptional()
  @Matches(/^[A-Za-z0-9_-]+$/, { message: 'NATS_USER may hold letters, digits, _ and - only' })
  NATS_USER?: string;

  @IsOptional()
  @IsString()
  NATS_PASSWORD?: string;

  /** `production` (the images set it): a distributed app then refuses to start without NATS credentials. */
  @IsOptional()
  @IsString()
  NODE_ENV?: string;

  @IsString()
  HUB_DATA_DIR: string = './data';

  /** Prefix for every NATS subject, queue and stream name: lets several hubs (or test runs) share a server. */
  @IsOptional()
  @Matches(/^[a-zA-Z0-9_-]*$/, { message: 'HUB_BUS_PREFIX may hold letters, digits, _ and - only' })
  HUB_BUS_PREFIX?: string;

  @IsInt()
  @Min(100)
  @Max(120_000)
  HUB_RPC_TIMEOUT_MS: number = 5000;

  /**
   * Days the bus streams keep events (JetStream max age; the all-in-one bus prunes after as
   * long): how far back a new subscriber can replay (decision 0702). Same value on every app.
   */
  @IsInt()
  @Min(1)
  @Max(3650)
  HUB_BUS_RETENTION_DAYS: number = 7;

  /** Run pending migrations at start. Defaults to on for the all-in-one hub's embedded database, off with DATABASE_URL. */
  @IsOptional()
  @Transform(toBool)
  @IsBoolean()
  HUB_MIGRATE_ON_START?: boolean;

  @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
  LOG_LEVEL: string = 'info';

  /**
   * OpenTelemetry traces (decision 0504): `otlp` exports to OTEL_EXPORTER_OTLP_ENDPOINT (the SDK
   * reads its standard OTEL_EXPORTER_OTLP_* variables), `console` prints spans; unset or `none`:
   * off (the hub's default, unlike the SDK's), at next to no cost.
   */
  @IsOptional()
  @IsIn(['none', 'otlp', 'console'], { message: 'OTEL_TRACES_EXPORTER must be none, otlp or console' })
  OTEL_TRACES_EXPORTER?: string;

  /** Where `otlp` sends spans; the SDK reads it (and its other OTEL_EXPORTER_OTLP_* variables) itself. */
  @IsOptional()
  @Matches(/^https?:\/\/\S+$/, { message: 'OTEL_EXPORTER_OTLP_ENDPOINT must be an http(s) URL' })
  OTEL_EXPORTER_OTLP_ENDPOINT?: string;

  /** `true` turns OpenTelemetry off whatever OTEL_TRACES_EXPORTER says (the SDK's standard switch). */
  @IsOptional()
  @Transform(toBool)
  @IsBoolean()
  OTEL_SDK_DISABLED?: boolean;

  /** The `service.name` of this app's spans; default the app's name (gateway, webhooks, hub, …). */
  @IsOptional()
  @IsString()
  OTEL_SERVICE_NAME?: string;

  /** Port of the app's HTTP listener (the gateway's API; health and metrics on services). */
  @IsInt()
  @Min(0)
  @Max(65535)
  PORT: number = 8080;

  @IsString()
  HOST: string = '0.0.0.0';

  /** The address users reach the hub at, used in links (avatars, Link headers). Default http://localhost:8080 (the all-in-one hub uses its own PORT). */
  @IsOptional()
  @Matches(/^https?:\/\/\S+$/, { message: 'HUB_PUBLIC_URL must be an http(s) URL' })
  HUB_PUBLIC_URL?: string;

  /**
   * Port of a separate listener serving only /metrics (keep it off the public network). When
   * set, /metrics is not served on PORT.
   */
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(65535)
  HUB_METRICS_PORT?: number;

  /** Bearer token Prometheus sends for /metrics on PORT (used when HUB_METRICS_PORT is unset). */
  @IsOptional()
  @IsString()
  @MinLength(16, { message: 'HUB_METRICS_TOKEN must be at least 16 characters' })
  HUB_METRICS_TOKEN?: string;

  get publicUrl(): string {
    return (this.HUB_PUBLIC_URL ?? 'http://localhost:8080').replace(/\/$/, '');
  }

  get migrateOnStart(): boolean {
    return this.HUB_MIGRATE_ON_START ?? !this.DATABASE_URL;
  }
}

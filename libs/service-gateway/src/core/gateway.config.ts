import { IsInt, IsOptional, IsString, Max, Min, MinLength } from 'class-validator';
import { HubConfig } from '@hub/config';

export class GatewayConfig extends HubConfig {
  /** Bearer token of the admin API (/admin). The all-in-one mode generates one if unset. */
  @IsOptional() @IsString() @MinLength(16, { message: 'HUB_ADMIN_TOKEN must be at least 16 characters' })
  HUB_ADMIN_TOKEN?: string;

  /** Largest request body in bytes (413 above). */
  @IsInt() @Min(1024) @Max(100 * 1024 * 1024)
  HUB_BODY_LIMIT: number = 1024 * 1024;

  /** Requests per minute per user (or per address when anonymous). */
  @IsInt() @Min(1)
  HUB_RATE_LIMIT_PER_MINUTE: number = 3000;

  /** Requests per minute per address on the public POST /api/credentials/revoke. */
  @IsInt() @Min(1)
  HUB_REVOKE_RATE_LIMIT_PER_MINUTE: number = 60;

  /** How long a verified token is trusted without asking credentials again (revocations drop it at once). */
  @IsInt() @Min(0) @Max(300_000)
  HUB_AUTH_CACHE_TTL_MS: number = 30_000;

  @IsInt() @Min(0)
  HUB_AUTH_CACHE_SIZE: number = 50_000;
}

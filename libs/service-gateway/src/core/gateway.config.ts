import { IsInt, IsOptional, IsString, IsUrl, Matches, Max, Min, MinLength, ValidateIf } from 'class-validator';
import { HubConfig } from '@hub/config';

/** One address or CIDR range (IPv4 or IPv6), as proxy-addr reads them. */
const PROXY_LIST = /^\s*[0-9a-fA-F:.]+(\/\d{1,3})?(\s*,\s*[0-9a-fA-F:.]+(\/\d{1,3})?)*\s*$/;

export class GatewayConfig extends HubConfig {
  /** Empty is a value here: HUB_WEBSITE_URL= turns the console's links off (decision 0808). */
  static readonly keepEmpty = ['HUB_WEBSITE_URL'];

  /** Bearer token of the admin API (/admin). The all-in-one mode generates one if unset. */
  @IsOptional()
  @IsString()
  @MinLength(16, { message: 'HUB_ADMIN_TOKEN must be at least 16 characters' })
  HUB_ADMIN_TOKEN?: string;

  /** Largest request body in bytes (413 above). */
  @IsInt()
  @Min(1024)
  @Max(100 * 1024 * 1024)
  HUB_BODY_LIMIT: number = 1024 * 1024;

  /** Requests per minute per user (or per address when anonymous). */
  @IsInt()
  @Min(1)
  HUB_RATE_LIMIT_PER_MINUTE: number = 3000;

  /** Requests per minute per address on the public POST /api/credentials/revoke. */
  @IsInt()
  @Min(1)
  HUB_REVOKE_RATE_LIMIT_PER_MINUTE: number = 60;

  /** Failed authentications (bad user or admin token) per minute per address; past it 429. */
  @IsInt()
  @Min(1)
  HUB_AUTH_FAILURE_LIMIT_PER_MINUTE: number = 30;

  /** How long a verified token is trusted without asking credentials again (revocations drop it at once). */
  @IsInt()
  @Min(0)
  @Max(300_000)
  HUB_AUTH_CACHE_TTL_MS: number = 30_000;

  @IsInt()
  @Min(0)
  HUB_AUTH_CACHE_SIZE: number = 50_000;

  /**
   * How long the gateway answers an unchanged notifications poll (304) itself, without asking
   * the notifications service; an inbox change drops it at once. 0: every poll goes to the service.
   */
  @IsInt()
  @Min(0)
  @Max(300_000)
  HUB_INBOX_POLL_CACHE_TTL_MS: number = 30_000;

  /** Time a client has to send the whole request body once its headers arrived (408 past it). */
  @IsInt()
  @Min(100)
  @Max(600_000)
  HUB_BODY_TIMEOUT_MS: number = 10_000;

  /** Open server-sent-event streams (job logs, events, metrics) per user on one gateway; past it 429 (decision 0505). */
  @IsInt()
  @Min(1)
  @Max(100_000)
  HUB_STREAMS_MAX_PER_USER: number = 32;

  /** Open server-sent-event streams per token on one gateway; past it 429 (decision 0505). */
  @IsInt()
  @Min(1)
  @Max(100_000)
  HUB_STREAMS_MAX_PER_TOKEN: number = 16;

  /** Most simultaneous HTTP connections per gateway; new ones past it are closed at once. */
  @IsInt()
  @Min(1)
  HUB_MAX_CONNECTIONS: number = 10_000;

  /** How long a console session lasts from sign-in (decision 0800), in hours: 1 to 720 (30 days). */
  @IsInt()
  @Min(1)
  @Max(720)
  HUB_CONSOLE_SESSION_HOURS: number = 12;

  /**
   * Where the built console is (index.html and assets/). Unset: dist/apps/console, found beside the
   * running bundle or under the working directory; `/` says how to build it when it is not there.
   */
  @IsOptional()
  @IsString()
  HUB_CONSOLE_DIR?: string;

  /**
   * The hub's website, where discussions, pull requests, papers, posts and blog articles have their
   * pages: the console links each notification there (decision 0808). Empty: no links.
   */
  @ValidateIf((c: GatewayConfig) => c.HUB_WEBSITE_URL !== '')
  @IsUrl(
    { protocols: ['http', 'https'], require_protocol: true, require_tld: false },
    { message: 'HUB_WEBSITE_URL must be an http(s) URL, or empty for no links' },
  )
  @Matches(/^[^?#]*$/, { message: 'HUB_WEBSITE_URL must be a base address, without a query or a fragment' })
  HUB_WEBSITE_URL: string = 'https://huggingface.co';

  /**
   * Proxies (addresses or CIDR ranges, comma separated) whose X-Forwarded-For is believed: the
   * client address, which per-address limits count, is then the first untrusted hop. Unset: the
   * socket's peer address, X-Forwarded-For ignored.
   */
  @IsOptional()
  @Matches(PROXY_LIST, { message: 'HUB_TRUSTED_PROXIES must be a comma-separated list of IP addresses or CIDR ranges' })
  HUB_TRUSTED_PROXIES?: string;

  /** Jobs' exposed ports answer at `<job_id>--<port>.<HUB_JOBS_DOMAIN>` (the jobs service's setting, same variable). */
  @Matches(/^[a-z0-9.-]+$/, { message: 'HUB_JOBS_DOMAIN must be a host name' })
  HUB_JOBS_DOMAIN: string = 'jobs.localhost';

  /** HUB_WEBSITE_URL without its trailing slash, or null when links are off. */
  get websiteUrl(): string | null {
    return this.HUB_WEBSITE_URL ? this.HUB_WEBSITE_URL.replace(/\/+$/, '') : null;
  }

  get trustedProxies(): string[] {
    return (this.HUB_TRUSTED_PROXIES ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
  }
}

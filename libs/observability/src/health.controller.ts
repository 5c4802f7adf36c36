import { Controller, Get, HttpException, Inject, Optional, SetMetadata } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';

/** A named check that /health/ready runs; it throws (or rejects) when not ready. */
export interface ReadinessCheck {
  name: string;
  check(): Promise<void>;
  /** The connection pool behind a database check: its use is exported as hub_db_pool_* (PlatformMetrics). */
  pool?: PoolStats;
}

/** What pg's Pool tells about itself. */
export interface PoolStats {
  totalCount: number;
  idleCount: number;
  waitingCount: number;
  options: { max?: number };
}

export const READINESS_CHECKS = Symbol('READINESS_CHECKS');

/** Same key as the gateway's @Public(): health needs no token. */
const PUBLIC = SetMetadata('hub:public', true);

export class HealthLive {
  @ApiProperty({ enum: ['ok'] })
  status!: 'ok';
}

export class HealthReady {
  @ApiProperty({ enum: ['ok'] })
  status!: 'ok';

  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'string', enum: ['ok'] },
    description: 'each readiness check by name',
  })
  checks!: Record<string, 'ok'>;
}

/** In the OpenAPI document too: the end-to-end suites check every JSON answer against it. */
@ApiTags('health')
@Controller('health')
export class HealthController {
  constructor(@Optional() @Inject(READINESS_CHECKS) private readonly checks: ReadinessCheck[] = []) {}

  /** The process runs and answers. */
  @Get('live')
  @PUBLIC
  @ApiOperation({ summary: 'The process runs and answers', security: [] })
  @ApiOkResponse({ type: HealthLive })
  live(): HealthLive {
    return { status: 'ok' };
  }

  /** Postgres and NATS answer: the app can take traffic. 503 with the failing checks otherwise. */
  @Get('ready')
  @PUBLIC
  @ApiOperation({ summary: 'Postgres and NATS answer (503 with the failing checks otherwise)', security: [] })
  @ApiOkResponse({ type: HealthReady })
  async ready(): Promise<HealthReady> {
    const results = await Promise.all(
      this.checks.map(async (c) => {
        try {
          await Promise.race([
            c.check(),
            new Promise((_, reject) => setTimeout(() => reject(new Error('timeout')), 2000).unref()),
          ]);
          return [c.name, 'ok'] as const;
        } catch (e) {
          return [c.name, `failing: ${e instanceof Error ? e.message : String(e)}`] as const;
        }
      }),
    );
    const failing = results.filter(([, s]) => s !== 'ok');
    if (failing.length > 0)
      throw new HttpException(`Not ready: ${failing.map(([n, s]) => `${n} ${s}`).join('; ')}`, 503);
    return { status: 'ok', checks: Object.fromEntries(results) as Record<string, 'ok'> };
  }
}

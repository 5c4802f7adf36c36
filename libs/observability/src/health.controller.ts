import { Controller, Get, HttpException, Inject, Optional, SetMetadata } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';

/** A named check that /health/ready runs; it throws (or rejects) when not ready. */
export interface ReadinessCheck {
  name: string;
  check(): Promise<void>;
}

export const READINESS_CHECKS = Symbol('READINESS_CHECKS');

/** Same key as the gateway's @Public(): health needs no token. */
const PUBLIC = SetMetadata('hub:public', true);

@ApiExcludeController()
@Controller('health')
export class HealthController {
  constructor(@Optional() @Inject(READINESS_CHECKS) private readonly checks: ReadinessCheck[] = []) {}

  /** The process runs and answers. */
  @Get('live')
  @PUBLIC
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  /** Postgres and NATS answer: the app can take traffic. 503 with the failing checks otherwise. */
  @Get('ready')
  @PUBLIC
  async ready(): Promise<{ status: 'ok'; checks: Record<string, 'ok'> }> {
    const results = await Promise.all(
      this.checks.map(async (c) => {
        try {
          await Promise.race([c.check(), new Promise((_, reject) => setTimeout(() => reject(new Error('timeout')), 2000).unref())]);
          return [c.name, 'ok'] as const;
        } catch (e) {
          return [c.name, `failing: ${e instanceof Error ? e.message : String(e)}`] as const;
        }
      }),
    );
    const failing = results.filter(([, s]) => s !== 'ok');
    if (failing.length > 0) throw new HttpException(`Not ready: ${failing.map(([n, s]) => `${n} ${s}`).join('; ')}`, 503);
    return { status: 'ok', checks: Object.fromEntries(results) as Record<string, 'ok'> };
  }
}

import {
  type CallHandler,
  type CanActivate,
  Controller,
  type ExecutionContext,
  Get,
  Module,
  type NestInterceptor,
  Param,
  ParseIntPipe,
  Query,
  Sse,
  UnauthorizedException,
  UseGuards,
  UseInterceptors,
} from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_PIPE } from '@nestjs/core';
import { type NestFastifyApplication } from '@nestjs/platform-fastify';
import { Matches } from 'class-validator';
import { type FastifyRequest } from 'fastify';
import { map, type Observable, of } from 'rxjs';
import { loadConfig } from '@hub/config';
import { HttpMetrics } from '@hub/observability';
import { EdgeGuard } from './auth/edge.guard';
import { createGatewayApp } from './create-gateway-app';
import { GatewayConfig } from './gateway.config';
import { HttpErrorFilter } from './http/http-error.filter';
import { HubValidationPipe } from './http/validation.pipe';

class NameParam {
  @Matches(/^[a-z]+$/, { message: 'name must be lower-case letters' })
  name!: string;
}

/** Stands in for the edge guard: a 401 without a token, a 403 when asked, as the real one answers. */
const edge: CanActivate = {
  canActivate(ctx: ExecutionContext): boolean | Promise<boolean> {
    const req = ctx.switchToHttp().getRequest<FastifyRequest>();
    if (req.headers['x-token'] === undefined) throw new UnauthorizedException('a token is needed');
    return req.headers['x-deny'] === 'async' ? Promise.resolve(false) : true;
  },
};

class NeverGuard implements CanActivate {
  canActivate(): boolean {
    return false;
  }
}

class Wrap implements NestInterceptor {
  intercept(_ctx: ExecutionContext, next: CallHandler): Observable<unknown> {
    return next.handle().pipe(map((value) => ({ wrapped: value })));
  }
}

@Controller('things/:name')
class ThingsController {
  @Get()
  read(@Param() p: NameParam, @Query('q') q: string | undefined) {
    return { name: p.name, q: q ?? null };
  }

  @Get('wrapped')
  @UseInterceptors(Wrap)
  wrapped(@Param() p: NameParam) {
    return p.name;
  }

  @Get('closed')
  @UseGuards(NeverGuard)
  closed(): string {
    return 'never';
  }

  @Get('items/:id')
  item(@Param('id', ParseIntPipe) id: number) {
    return { id };
  }

  @Sse('events')
  events(): Observable<{ data: string }> {
    return of({ data: 'one' });
  }
}

@Module({
  controllers: [ThingsController],
  providers: [
    { provide: HttpMetrics, useValue: new HttpMetrics('gateway-spec') },
    { provide: EdgeGuard, useValue: edge },
    HttpErrorFilter,
    HubValidationPipe,
    { provide: APP_GUARD, useExisting: EdgeGuard },
    { provide: APP_FILTER, useExisting: HttpErrorFilter },
    { provide: APP_PIPE, useExisting: HubValidationPipe },
  ],
})
class ThingsModule {}

/**
 * Routes run through Nest's own router pipeline behind the gateway's edge (decision 0303): the
 * global guard, pipe and filter answer as they always did, and Nest's own decorators
 * (@UseInterceptors, @UseGuards, a pipe on one parameter, @Sse) work instead of stopping the start.
 */
describe('createGatewayApp', () => {
  let app: NestFastifyApplication;
  const token = { 'x-token': 't' };

  beforeAll(async () => {
    app = await createGatewayApp(ThingsModule, loadConfig(GatewayConfig, { LOG_LEVEL: 'silent' }), 'gateway-spec');
    // Listening: Nest's server-sent events need a real socket (light-my-request's has no keep-alive).
    await app.listen(0, '127.0.0.1');
  });

  afterAll(async () => {
    await app?.close();
  });

  it('answers a route through the global guard, pipe and filter, with the edge headers', async () => {
    const ok = await app.inject({ method: 'GET', url: '/things/abc?q=x', headers: token });
    expect([ok.statusCode, ok.json()]).toEqual([200, { name: 'abc', q: 'x' }]);
    expect(ok.headers['x-content-type-options']).toBe('nosniff');
    expect(ok.headers['x-request-id']).toBeDefined();
    const head = await app.inject({ method: 'HEAD', url: '/things/abc', headers: token });
    expect([head.statusCode, head.body]).toEqual([200, '']);
    const bad = await app.inject({ method: 'GET', url: '/things/ABC', headers: token });
    expect([bad.statusCode, bad.json(), bad.headers['x-error-message']]).toEqual([
      400,
      { error: 'name must be lower-case letters' },
      'name must be lower-case letters',
    ]);
    const anonymous = await app.inject({ method: 'GET', url: '/things/abc' });
    expect([anonymous.statusCode, anonymous.json(), anonymous.headers['www-authenticate']]).toEqual([
      401,
      { error: 'a token is needed' },
      'Bearer realm="hub"',
    ]);
    const denied = await app.inject({ method: 'GET', url: '/things/abc', headers: { ...token, 'x-deny': 'async' } });
    expect([denied.statusCode, denied.json()]).toEqual([403, { error: 'Forbidden resource' }]);
    const empty = await app.inject({ method: 'GET', url: '/things//wrapped', headers: token });
    expect(empty.statusCode).toBe(404);
  });

  it("runs Nest's own interceptors, route guards, parameter pipes and server-sent events", async () => {
    const wrapped = await app.inject({ method: 'GET', url: '/things/abc/wrapped', headers: token });
    expect([wrapped.statusCode, wrapped.json()]).toEqual([200, { wrapped: 'abc' }]);
    const closed = await app.inject({ method: 'GET', url: '/things/abc/closed', headers: token });
    expect([closed.statusCode, closed.json()]).toEqual([403, { error: 'Forbidden resource' }]);
    const item = await app.inject({ method: 'GET', url: '/things/abc/items/7', headers: token });
    expect([item.statusCode, item.json()]).toEqual([200, { id: 7 }]);
    const notNumber = await app.inject({ method: 'GET', url: '/things/abc/items/seven', headers: token });
    expect([notNumber.statusCode, notNumber.json()]).toEqual([
      400,
      { error: 'Validation failed (numeric string is expected)' },
    ]);
    const events = await fetch(`${await app.getUrl()}/things/abc/events`, { headers: token });
    expect([events.status, events.headers.get('content-type'), await events.text()]).toEqual([
      200,
      'text/event-stream',
      '\nid: 1\ndata: one\n\n',
    ]);
  });
});

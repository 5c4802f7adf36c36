import {
  Body, Controller, createParamDecorator, Delete, type ExecutionContext, Get, Header, Headers, HttpCode, Ip, Module, Param, ParseIntPipe, Post, Query, Req, Res,
  Sse, UnauthorizedException, UseGuards,
} from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_PIPE, NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { IsInt, IsString, Matches, Max, MaxLength } from 'class-validator';
import { Type as ToNumber } from 'class-transformer';
import { type FastifyInstance, type FastifyReply, type FastifyRequest, type InjectOptions } from 'fastify';
import { EdgeGuard } from '../auth/edge.guard';
import { HttpErrorFilter } from './http-error.filter';
import { installRouteExecutor } from './route-executor';
import { HubValidationPipe } from './validation.pipe';

class NameParam {
  @Matches(/^[a-z]+$/, { message: 'name must be lower-case letters' })
  name!: string;
}

class NoteBody {
  @IsString()
  @MaxLength(5)
  text!: string;
}

class PageQuery {
  @ToNumber(() => Number)
  @IsInt()
  @Max(50)
  limit!: number;
}

const Caller = createParamDecorator((data: string, ctx: ExecutionContext) => `${data}:${ctx.switchToHttp().getRequest<FastifyRequest>().headers['x-caller'] ?? 'nobody'}`);

@Controller('things/:name')
class ThingsController {
  @Get()
  read(@Param() p: NameParam, @Query() q: PageQuery, @Caller('who') caller: string, @Headers('x-extra') extra: string | undefined, @Ip() ip: string) {
    return { name: p.name, limit: q.limit, caller, extra: extra ?? null, ip };
  }

  @Post('notes')
  async add(@Param() p: NameParam, @Body() body: NoteBody) {
    await new Promise((resolve) => setImmediate(resolve));
    return { name: p.name, text: body.text };
  }

  @Post('flags/:flag')
  @HttpCode(202)
  @Header('Cache-Control', 'no-cache')
  flag(@Param('flag') flag: string, @Body('on') on: unknown) {
    return { flag, on: on ?? null };
  }

  @Delete()
  @HttpCode(204)
  remove(@Param() p: NameParam): void {
    void p;
  }

  @Get('passthrough')
  passthrough(@Res({ passthrough: true }) reply: FastifyReply) {
    void reply.header('X-Own', 'yes').status(203);
    return { passed: true };
  }

  @Get('raw')
  raw(@Req() req: FastifyRequest, @Res() reply: FastifyReply): void {
    void reply.status(207).send(`raw ${req.url}`);
  }

  @Get('boom')
  boom(): never {
    throw new Error('secret detail');
  }

  @Get('nothing')
  nothing(): undefined {
    return undefined;
  }
}

class AllowAll {
  canActivate(): boolean {
    return true;
  }
}

@Controller('guarded')
class GuardedController {
  @Get()
  @UseGuards(AllowAll)
  r(): string {
    return 'guarded';
  }
}

@Controller('sse')
class SseController {
  @Sse('s')
  r(): string {
    return 'sse';
  }
}

@Controller('piped')
class PipedController {
  @Get(':id')
  r(@Param('id', ParseIntPipe) id: number): number {
    return id;
  }
}

/** Admits unless asked not to: by a false, a promise of false, or a 401. */
const guard = {
  rulesFor: () => ({ admin: false, public: true, strictRateLimit: false, org: undefined }),
  admit(req: FastifyRequest): boolean | Promise<boolean> {
    const deny = req.headers['x-deny'];
    if (deny === 'sync') return false;
    if (deny === 'async') return Promise.resolve(false);
    if (deny === 'throw') throw new UnauthorizedException('no entry');
    return req.headers['x-slow'] ? Promise.resolve(true) : true;
  },
  /** Calls through Nest's router pipeline (the executor calls admit directly). */
  viaNest: 0,
  canActivate(ctx: ExecutionContext) {
    this.viaNest++;
    return this.admit(ctx.switchToHttp().getRequest<FastifyRequest>());
  },
};

const edgeProviders = [
  { provide: EdgeGuard, useValue: guard },
  HttpErrorFilter,
  HubValidationPipe,
  { provide: APP_GUARD, useExisting: EdgeGuard },
  { provide: APP_FILTER, useExisting: HttpErrorFilter },
  { provide: APP_PIPE, useExisting: HubValidationPipe },
];

@Module({ controllers: [ThingsController], providers: edgeProviders })
class ThingsModule {}

async function start(module: object, executor: boolean): Promise<NestFastifyApplication> {
  const app = await NestFactory.create<NestFastifyApplication>(module as never, new FastifyAdapter({ skipMiddie: true }), { logger: false, abortOnError: false });
  if (executor) installRouteExecutor(app);
  await app.init();
  await (app.getHttpAdapter().getInstance() as FastifyInstance).ready();
  return app;
}

const REQUESTS: InjectOptions[] = [
  { method: 'GET', url: '/things/abc?limit=7', headers: { 'x-caller': 'ann', 'x-extra': 'e' } },
  { method: 'GET', url: '/things/abc?limit=7', headers: { 'x-slow': '1' } },
  { method: 'GET', url: '/things/ABC?limit=7' },
  { method: 'GET', url: '/things/abc?limit=500' },
  { method: 'GET', url: '/things/abc?limit=x' },
  { method: 'GET', url: '/things/ABC?limit=x' },
  { method: 'HEAD', url: '/things/abc?limit=7' },
  { method: 'GET', url: '/things//passthrough' },
  { method: 'GET', url: '/things/abc?limit=7', headers: { 'x-deny': 'sync' } },
  { method: 'GET', url: '/things/abc?limit=7', headers: { 'x-deny': 'async' } },
  { method: 'GET', url: '/things/abc?limit=7', headers: { 'x-deny': 'throw' } },
  { method: 'POST', url: '/things/abc/notes', payload: { text: 'hi', extra: 'dropped' } },
  { method: 'POST', url: '/things/abc/notes', payload: { text: 'far too long' } },
  { method: 'POST', url: '/things/ABC/notes', payload: { text: 'far too long' } },
  { method: 'POST', url: '/things/abc/notes', payload: [1, 2], headers: { 'content-type': 'application/json' } },
  { method: 'POST', url: '/things/abc/notes', payload: '{"text":', headers: { 'content-type': 'application/json' } },
  { method: 'POST', url: '/things/abc/flags/f1', payload: { on: true } },
  { method: 'POST', url: '/things/abc/flags/f1', payload: [true], headers: { 'content-type': 'application/json' } },
  { method: 'DELETE', url: '/things/abc' },
  { method: 'GET', url: '/things/abc/passthrough' },
  { method: 'GET', url: '/things/abc/raw' },
  { method: 'GET', url: '/things/abc/boom' },
  { method: 'GET', url: '/things/abc/nothing' },
  { method: 'GET', url: '/things/abc/nowhere' },
];

/** What a client sees, without what differs per answer (dates, error ids). */
function seen(res: { statusCode: number; headers: Record<string, unknown>; body: string }): object {
  const anonymous = (text: string): string => text.replace(/\(id [0-9a-f-]+\)/, '(id …)');
  const headers = { ...res.headers };
  delete headers['date'];
  if (typeof headers['x-error-message'] === 'string') headers['x-error-message'] = anonymous(headers['x-error-message']);
  return { status: res.statusCode, headers, body: anonymous(res.body) };
}

describe('route executor', () => {
  let nest: NestFastifyApplication;
  let ours: NestFastifyApplication;

  beforeAll(async () => {
    nest = await start(ThingsModule, false);
    ours = await start(ThingsModule, true);
  });

  afterAll(async () => {
    await nest?.close();
    await ours?.close();
  });

  it.each(REQUESTS.map((r) => [`${r.method} ${r.url} ${JSON.stringify(r.headers ?? {})}`, r] as const))('answers %s exactly as Nest does', async (_name, request) => {
    const timed = (app: NestFastifyApplication, who: string) => Promise.race([app.inject(request), new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${who} did not answer`)), 3000))]);
    const [expected, actual] = await Promise.all([timed(nest, 'nest'), timed(ours, 'executor')]);
    expect(seen(actual)).toEqual(seen(expected));
  });

  it('answers what the handlers say, through the executor (the comparison is not of two broken or two Nest apps)', async () => {
    const before = guard.viaNest;
    const read = await ours.inject({ method: 'GET', url: '/things/abc?limit=7', headers: { 'x-caller': 'ann' } });
    expect(read.statusCode).toBe(200);
    expect(read.json()).toEqual({ name: 'abc', limit: 7, caller: 'who:ann', extra: null, ip: '127.0.0.1' });
    const flag = await ours.inject({ method: 'POST', url: '/things/abc/flags/f1', payload: { on: true } });
    expect([flag.statusCode, flag.headers['cache-control'], flag.json()]).toEqual([202, 'no-cache', { flag: 'f1', on: true }]);
    const bad = await ours.inject({ method: 'GET', url: '/things/ABC?limit=x' });
    expect([bad.statusCode, bad.json()]).toEqual([400, { error: 'name must be lower-case letters' }]);
    const denied = await ours.inject({ method: 'GET', url: '/things/abc?limit=7', headers: { 'x-deny': 'async' } });
    expect([denied.statusCode, denied.json()]).toEqual([403, { error: 'Forbidden resource' }]);
    const raw = await ours.inject({ method: 'GET', url: '/things/abc/raw' });
    expect([raw.statusCode, raw.body]).toEqual([207, 'raw /things/abc/raw']);
    const empty = await ours.inject({ method: 'GET', url: '/things//passthrough' });
    expect(empty.statusCode).toBe(404);
    expect(guard.viaNest).toBe(before);
    await nest.inject({ method: 'GET', url: '/things/abc?limit=7' });
    expect(guard.viaNest).toBe(before + 1);
  });

  it.each([
    ['@UseGuards', GuardedController],
    ['@Sse', SseController],
    ['a pipe on a parameter', PipedController],
  ])('refuses to start with a route that uses %s, naming it', async (what, controller) => {
    @Module({ controllers: [controller], providers: edgeProviders })
    class RefusedModule {}
    await expect(start(RefusedModule, true)).rejects.toThrow(`${controller.name}.r uses ${what}`);
  });
});

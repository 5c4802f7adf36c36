import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import fastifyStatic from '@fastify/static';
import { type NestFastifyApplication } from '@nestjs/platform-fastify';
import { type FastifyInstance, type FastifyReply } from 'fastify';
import { type GatewayConfig } from '../core/gateway.config';

const NOT_BUILT = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Hub console</title></head>
<body><h1>The console is not built</h1><p>Run <code>npx nx build console</code> (or <code>npm start</code>, which builds it), then reload.</p>
<p>The API is at <a href="/docs">/docs</a>.</p></body></html>`;

/** The console's files: HUB_CONSOLE_DIR, or dist/apps/console beside the bundle, under the working directory or above the sources. */
export function consoleDir(config: GatewayConfig): string | null {
  const candidates = config.HUB_CONSOLE_DIR
    ? [resolve(config.HUB_CONSOLE_DIR)]
    : [
        ...(process.argv[1] ? [join(dirname(process.argv[1]), '../console')] : []),
        join(process.cwd(), 'dist/apps/console'),
        ...ancestors(__dirname).map((d) => join(d, 'dist/apps/console')),
      ];
  return candidates.find((d) => existsSync(join(d, 'index.html'))) ?? null;
}

function ancestors(dir: string): string[] {
  const found: string[] = [];
  for (let d = dir; dirname(d) !== d; d = dirname(d)) found.push(d);
  return found;
}

/**
 * Serves the console at `/` (index.html) and `/assets/…` on the API's own origin; API routes keep
 * their paths. Hashed asset names may be cached for good; index.html never is.
 */
export async function serveConsole(app: NestFastifyApplication, config: GatewayConfig): Promise<void> {
  const root = consoleDir(config);
  const fastify = app.getHttpAdapter().getInstance() as unknown as FastifyInstance;
  if (!root) {
    fastify.get('/', (_req, reply) => reply.type('text/html; charset=utf-8').send(NOT_BUILT));
    return;
  }
  await app.register(fastifyStatic as never, {
    root,
    prefix: '/',
    wildcard: false,
    index: ['index.html'],
    decorateReply: false,
    cacheControl: false,
    // @fastify/static 10 passes the reply here.
    setHeaders: (reply: FastifyReply, path: string) => {
      const immutable = path.startsWith(join(root, 'assets'));
      void reply.header('Cache-Control', immutable ? 'public, max-age=31536000, immutable' : 'no-store');
    },
  });
}

import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from 'jest';

/**
 * The unit tier, `npm run test:unit`: every project's `*.spec.ts` in one jest run, nothing else.
 * Unit specs need no PostgreSQL, NATS, built app or browser; `*.int-spec.ts` (infrastructure) and
 * `*.e2e-spec.ts` (built apps, browser) run with `npm test` only. HUB_TEST_TIER=unit (inherited
 * by the workers) keeps the global setup from probing for infrastructure and makes
 * describeWithInfra fail a `*.spec.ts` that asks for it.
 */
process.env['HUB_TEST_TIER'] = 'unit';

const subdirs = (dir: string): string[] =>
  existsSync(dir)
    ? readdirSync(dir, { withFileTypes: true })
        .filter((d) => d.isDirectory())
        .map((d) => join(dir, d.name))
    : [];

// Each project's own jest config (apps/*, libs/*, tools/*, and a feature's tiers libs/<feature>/*),
// with only its unit specs.
const projects = ['apps', 'libs', 'tools']
  .flatMap((top) => subdirs(join(__dirname, top)))
  .flatMap((dir) => (existsSync(join(dir, 'jest.config.cts')) ? [dir] : subdirs(dir)))
  .filter((dir) => existsSync(join(dir, 'jest.config.cts')))
  .map((dir) => ({
    ...(require(join(dir, 'jest.config.cts')) as Config),
    rootDir: dir,
    testMatch: ['<rootDir>/**/*.spec.ts'],
  }));

export default { projects } satisfies Config;

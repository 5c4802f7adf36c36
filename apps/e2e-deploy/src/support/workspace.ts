import { repoDir, repoExists, repoFile, repoTree } from './repo-files';

/**
 * What the deployment files must cover, found in the sources rather than listed here, so a new
 * app, service or config class fails these tests until docker/, k8s/ and the examples follow.
 */

/** The HTTP edge: the one app whose port is published and that waits for every service. */
export const GATEWAY = 'gateway';

/** Every service in one process (embedded PostgreSQL, in-process bus): compose only, never k8s. */
export const ALL_IN_ONE = 'hub';

/**
 * Apps with a webpack build: each ships as an image built from docker/Dockerfile with its APP.
 * Examples (tag `type:example`, e.g. the bus subscriber `audit-mirror`) are what other teams
 * copy, run beside a hub, not part of it (decision 0702).
 */
export function deployableApps(): string[] {
  return repoDir('apps').filter((app) => repoExists(`apps/${app}/webpack.config.js`) && !isExample(app));
}

function isExample(app: string): boolean {
  const project = `apps/${app}/project.json`;
  return (
    repoExists(project) &&
    (JSON.parse(repoFile(project)) as { tags?: string[] }).tags?.includes('type:example') === true
  );
}

/** Apps started by `runService(…)`: each owns a schema, migrates as a one-shot and answers RPC over NATS. */
export function services(): string[] {
  return repoDir('apps').filter((app) => /\brunService\s*\(/.test(mainOf(app)));
}

/** The apps of a distributed deployment (k8s): every deployable app but the all-in-one hub. */
export function distributedApps(): string[] {
  return deployableApps().filter((app) => app !== ALL_IN_ONE);
}

export interface ConfigClass {
  name: string;
  file: string;
}

/** Every lib's `src`: `libs/<lib>/src`, and a feature folder's tiers `libs/<feature>/<tier>/src` (decision 0019). */
function libSources(): string[] {
  return repoDir('libs')
    .flatMap((lib) =>
      repoExists(`libs/${lib}/src`) ? [`libs/${lib}`] : repoDir(`libs/${lib}`).map((t) => `libs/${lib}/${t}`),
    )
    .filter((dir) => repoExists(`${dir}/src`))
    .map((dir) => `${dir}/src`);
}

/**
 * HubConfig and every class in a `*.config.ts` under a lib's `src` (libs/<lib>/src or
 * libs/<feature>/<tier>/src) that extends it, directly or through another config class.
 */
export function configClasses(): ConfigClass[] {
  const sources = libSources()
    .flatMap((src) => repoTree(src))
    .filter((f) => f.endsWith('.ts') && !/\.(spec|int-spec|e2e-spec)\.ts$/.test(f));
  const base = sources.filter((f) => /^export class HubConfig\b/m.test(repoFile(f)));
  if (base.length !== 1)
    throw new Error(`expected one file declaring class HubConfig under a lib's src, found ${base.length}`);

  const found: ConfigClass[] = [{ name: 'HubConfig', file: base[0] }];
  const candidates = sources
    .filter((f) => f.endsWith('.config.ts'))
    .flatMap((file) =>
      [...repoFile(file).matchAll(/\bclass\s+(\w+)\s+extends\s+(\w+)/g)].map((m) => ({
        file,
        name: m[1],
        parent: m[2],
      })),
    );
  // Until nothing new turns up, so `class A extends GatewayConfig` counts too.
  for (let grew = true; grew;) {
    const known = new Set(found.map((c) => c.name));
    const next = candidates.filter((c) => known.has(c.parent) && !known.has(c.name));
    found.push(...next.map(({ name, file }) => ({ name, file })));
    grew = next.length > 0;
  }
  return found.sort((a, b) => a.file.localeCompare(b.file));
}

/** The config classes an app's main.ts names (`loadConfig(GatewayConfig)`, `runService({ config: … })`). */
export function configClassesOf(app: string, classes: ConfigClass[] = configClasses()): ConfigClass[] {
  const main = mainOf(app);
  return classes.filter((c) => new RegExp(`\\b${c.name}\\b`).test(main));
}

function mainOf(app: string): string {
  const path = `apps/${app}/src/main.ts`;
  return repoExists(path) ? repoFile(path) : '';
}

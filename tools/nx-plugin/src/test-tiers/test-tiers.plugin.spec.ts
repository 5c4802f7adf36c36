import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createNodes, tiersIn } from './test-tiers.plugin';

describe('test tiers plugin', () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'test-tiers-'));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  const touch = (path: string): void => {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), '');
  };

  it('gives a project the tiers its spec files name, and none for unit specs alone', async () => {
    touch('libs/a/jest.config.cts');
    touch('libs/a/src/deep/x.int-spec.ts');
    touch('libs/a/src/y.spec.ts');
    touch('libs/b/jest.config.cts');
    touch('libs/b/src/z.spec.ts');
    touch('libs/b/node_modules/dep/w.e2e-spec.ts');
    expect(tiersIn(join(root, 'libs/a'))).toEqual(['int']);
    const [, build] = createNodes;
    const results = await build(['libs/a/jest.config.cts', 'libs/b/jest.config.cts'], undefined, {
      workspaceRoot: root,
      nxJsonConfiguration: {},
    });
    const targets = Object.fromEntries(
      results.map(([file, r]) => [file, Object.keys(Object.values(r.projects ?? {})[0]?.targets ?? {})]),
    );
    expect(targets).toEqual({ 'libs/a/jest.config.cts': ['test-int'], 'libs/b/jest.config.cts': [] });
    const [[, a]] = results;
    expect(a.projects?.['libs/a']?.targets?.['test-int']?.options).toEqual({
      command: 'jest -c jest.config.cts --passWithNoTests',
      cwd: '{projectRoot}',
      env: { HUB_TEST_TIER: 'int' },
    });
  });
});

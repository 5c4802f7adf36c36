import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';

const WORKSPACE = resolve(__dirname, '../../../..');
const RULE = '@nx/enforce-module-boundaries';

/** The feature folders: `libs/<feature>/` holding `contract/`, `http/` and `service/` (decision 0019). */
const features = readdirSync(join(WORKSPACE, 'libs')).filter((f) =>
  ['contract', 'http', 'service'].every((tier) => existsSync(join(WORKSPACE, 'libs', f, tier, 'project.json'))),
);

interface Case {
  feature: string;
  tier: string;
  code: string;
}

/**
 * The lint messages of each case's `code` as if it were a file of that tier (never written), from
 * one ESLint process through its public Node API: the config and the project graph load once, not
 * once per case (an `eslint --stdin` per case took 100 s of CI's CPU).
 */
function lintAll(cases: Case[]): string[][] {
  const script = `
    const { ESLint } = require('eslint');
    const cases = JSON.parse(require('fs').readFileSync(0, 'utf8'));
    (async () => {
      const eslint = new ESLint({ cwd: process.cwd() });
      const out = [];
      for (const c of cases) {
        const [result] = await eslint.lintText(c.code, { filePath: 'libs/' + c.feature + '/' + c.tier + '/src/wall-check.ts' });
        out.push((result ? result.messages : []).filter((m) => m.ruleId === ${JSON.stringify(RULE)}).map((m) => m.message));
      }
      process.stdout.write(JSON.stringify(out));
    })().catch((e) => { console.error(e); process.exit(1); });`;
  const run = spawnSync(process.execPath, ['-e', script], {
    cwd: WORKSPACE,
    input: JSON.stringify(cases),
    encoding: 'utf8',
    maxBuffer: 16 * 1024 * 1024,
  });
  if (run.status !== 0) throw new Error(`eslint failed: ${run.stderr}`);
  return JSON.parse(run.stdout) as string[][];
}

const importing = (alias: string): string => `import * as other from '${alias}';\n\nexport const used = other;\n`;

describe('the walls between tiers (lint, decision 0019)', () => {
  const cases = features.flatMap((feature): Case[] => [
    { feature, tier: 'http', code: importing(`@hub/${feature}-service`) },
    { feature, tier: 'service', code: importing(`@hub/${feature}-http`) },
    { feature, tier: 'contract', code: importing(`@hub/${feature}-service`) },
    { feature, tier: 'http', code: importing(`@hub/${feature}-contract`) },
    { feature, tier: 'service', code: importing(`@hub/${feature}-contract`) },
  ]);
  let results: string[][] = [];
  const lint = (feature: string, tier: string, code: string): string[] =>
    results[cases.findIndex((c) => c.feature === feature && c.tier === tier && c.code === code)];

  beforeAll(() => {
    results = lintAll(cases);
  }, 300_000);

  it('finds the feature folders', () => {
    expect(features).toEqual(
      expect.arrayContaining(['credentials', 'jobs', 'notifications', 'organizations', 'webhooks']),
    );
  });

  it.each(features)('%s: http never imports service, service never imports http, a contract neither', (feature) => {
    expect(lint(feature, 'http', importing(`@hub/${feature}-service`))).toEqual([
      expect.stringContaining('A project tagged with "type:http" can only depend on libs tagged with "type:contract"'),
    ]);
    expect(lint(feature, 'service', importing(`@hub/${feature}-http`))).toEqual([
      expect.stringContaining(
        'A project tagged with "type:service" can only depend on libs tagged with "type:contract"',
      ),
    ]);
    // A contract importing its service: refused too (the lint names the cycle it makes).
    expect(lint(feature, 'contract', importing(`@hub/${feature}-service`))).not.toEqual([]);
  });

  it.each(features)('%s: http and service import the contract freely', (feature) => {
    expect(lint(feature, 'http', importing(`@hub/${feature}-contract`))).toEqual([]);
    expect(lint(feature, 'service', importing(`@hub/${feature}-contract`))).toEqual([]);
  });
});

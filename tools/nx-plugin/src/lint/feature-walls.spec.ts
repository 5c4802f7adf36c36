import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';

const WORKSPACE = resolve(__dirname, '../../../..');
const ESLINT = join(WORKSPACE, 'node_modules/.bin/eslint');
const RULE = '@nx/enforce-module-boundaries';

/** The feature folders: `libs/<feature>/` holding `contract/`, `http/` and `service/` (decision 0019). */
const features = readdirSync(join(WORKSPACE, 'libs')).filter((f) =>
  ['contract', 'http', 'service'].every((tier) => existsSync(join(WORKSPACE, 'libs', f, tier, 'project.json'))),
);

/** The lint messages of `code` as if it were a file of that tier (it is never written). */
function lint(feature: string, tier: string, code: string): string[] {
  const file = `libs/${feature}/${tier}/src/wall-check.ts`;
  const run = spawnSync(ESLINT, ['--format', 'json', '--stdin', '--stdin-filename', file], {
    cwd: WORKSPACE,
    input: code,
    encoding: 'utf8',
  });
  const [result] = JSON.parse(run.stdout) as { messages: { ruleId: string | null; message: string }[] }[];
  return (result?.messages ?? []).filter((m) => m.ruleId === RULE).map((m) => m.message);
}

const importing = (alias: string): string => `import * as other from '${alias}';\n\nexport const used = other;\n`;

describe('the walls between tiers (lint, decision 0019)', () => {
  it('finds the feature folders', () => {
    expect(features).toEqual(
      expect.arrayContaining(['credentials', 'jobs', 'notifications', 'organizations', 'webhooks']),
    );
  });

  it.each(features)(
    '%s: http never imports service, service never imports http, a contract neither',
    (feature) => {
      expect(lint(feature, 'http', importing(`@hub/${feature}-service`))).toEqual([
        expect.stringContaining(
          'A project tagged with "type:http" can only depend on libs tagged with "type:contract"',
        ),
      ]);
      expect(lint(feature, 'service', importing(`@hub/${feature}-http`))).toEqual([
        expect.stringContaining(
          'A project tagged with "type:service" can only depend on libs tagged with "type:contract"',
        ),
      ]);
      // A contract importing its service: refused too (the lint names the cycle it makes).
      expect(lint(feature, 'contract', importing(`@hub/${feature}-service`))).not.toEqual([]);
    },
    60_000,
  );

  it.each(features)(
    '%s: http and service import the contract freely',
    (feature) => {
      expect(lint(feature, 'http', importing(`@hub/${feature}-contract`))).toEqual([]);
      expect(lint(feature, 'service', importing(`@hub/${feature}-contract`))).toEqual([]);
    },
    60_000,
  );
});

import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { type CreateNodes, type TargetConfiguration } from '@nx/devkit';

/**
 * The integration and end-to-end tiers as targets of their own (decision 0017, issue 36 item 7):
 * `nx test <project>` runs the unit specs (`*.spec.ts`; the preset's default tier), and a
 * project holding `*.int-spec.ts` gets `test-int`, one holding `*.e2e-spec.ts` gets `test-e2e`,
 * each one jest run over its own tier (HUB_TEST_TIER picks the files in jest.preset.js). A
 * project's own project.json adds what a tier needs beyond that (the apps an e2e tier builds first).
 * Not cached: these tiers answer for the Postgres, NATS, engine and browser they run against.
 */
export const TIERS = { int: '.int-spec.ts', e2e: '.e2e-spec.ts' } as const;

/** Which of the tiers' spec files a project's source tree holds (node_modules and dist left out). */
export function tiersIn(root: string): (keyof typeof TIERS)[] {
  const found = new Set<keyof typeof TIERS>();
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) {
        if (entry.name !== 'node_modules' && entry.name !== 'dist') walk(join(dir, entry.name));
        continue;
      }
      for (const [tier, suffix] of Object.entries(TIERS) as [keyof typeof TIERS, string][])
        if (entry.name.endsWith(suffix)) found.add(tier);
    }
  };
  walk(root);
  return (Object.keys(TIERS) as (keyof typeof TIERS)[]).filter((t) => found.has(t));
}

export function tierTarget(tier: keyof typeof TIERS): TargetConfiguration {
  return {
    executor: 'nx:run-commands',
    cache: false,
    options: {
      command: 'jest -c jest.config.cts --passWithNoTests',
      cwd: '{projectRoot}',
      env: { HUB_TEST_TIER: tier },
    },
  };
}

export const createNodes: CreateNodes = [
  '**/jest.config.cts',
  (configFiles, _options, context) =>
    configFiles.map((file) => {
      const root = dirname(file);
      const targets = Object.fromEntries(
        tiersIn(join(context.workspaceRoot, root)).map((tier) => [`test-${tier}`, tierTarget(tier)]),
      );
      return [file, { projects: { [root]: { targets } } }] as const;
    }),
];

#!/usr/bin/env node
// `npm install`'s last step (the `prepare` script): builds the all-in-one hub and the web console, so that the first
// `npm start` of a fresh clone answers in seconds (decision 0016). Skipped in CI (the tests build
// every app themselves, without Nx's cache) and where the sources are not there (an image's
// dependency layer). A failed build does not fail the install: `npm start` builds again and shows why.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildHub, hubIsBuilt } from './start.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
if (process.env.CI || process.env.HUB_SKIP_PREPARE_BUILD || !existsSync(join(root, 'apps/hub/src/main.ts')))
  process.exit(0);
if (!hubIsBuilt()) {
  process.stdout.write('Building the all-in-one hub for npm start (HUB_SKIP_PREPARE_BUILD=1 skips this)…\n');
  if (!buildHub()) process.stdout.write('The hub did not build; npm start will try again.\n');
}

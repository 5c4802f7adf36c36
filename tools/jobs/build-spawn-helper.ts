/**
 * Builds the jobs service's native spawn helper ahead of time (decision 0614), for images without
 * a C compiler at run time: `npm run jobs:spawn-helper -- <dir>` writes <dir>/hub-jobs-spawn-helper,
 * which the service prefers over compiling its own when it sits beside the app's main.js.
 */
import { chmodSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { compileNativeHelper, PREBUILT_HELPER } from '../../libs/service-jobs/src/runner/native-spawn-helper';

async function main(): Promise<void> {
  const dir = process.argv[2];
  if (!dir) throw new Error('usage: npm run jobs:spawn-helper -- <output directory>');
  const binary = await compileNativeHelper();
  if (!binary) throw new Error('cc could not compile the spawn helper');
  const file = join(resolve(dir), PREBUILT_HELPER);
  writeFileSync(file, binary);
  chmodSync(file, 0o755);
  console.log(`wrote ${file}`);
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});

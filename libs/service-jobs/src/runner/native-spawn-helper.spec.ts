import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { nativeHelperBinary, PREBUILT_HELPER } from './native-spawn-helper';

describe('the native spawn helper executable', () => {
  const argv1 = process.argv[1];

  afterAll(() => {
    process.argv[1] = argv1 as string;
  });

  it('is the prebuilt one beside the app\'s main.js when there is one (the Docker images), not compiled again', async () => {
    const app = mkdtempSync(join(tmpdir(), 'app-'));
    writeFileSync(join(app, PREBUILT_HELPER), 'prebuilt bytes');
    process.argv[1] = join(app, 'main.js');
    expect((await nativeHelperBinary())?.toString()).toBe('prebuilt bytes');
  });
});

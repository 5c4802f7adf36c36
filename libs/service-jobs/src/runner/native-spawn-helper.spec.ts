import { readlinkSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compileNativeHelper, nativeHelper, PREBUILT_HELPER } from './native-spawn-helper';
import { SpawnHelper } from './spawn-helper';

describe('the native spawn helper executable', () => {
  const argv1 = process.argv[1];
  const helper = new SpawnHelper('native');

  afterAll(async () => {
    process.argv[1] = argv1 as string;
    await helper.close();
  });

  it("is the prebuilt one beside the app's main.js when there is one (the Docker images), run in place, not compiled again", async () => {
    const app = mkdtempSync(join(tmpdir(), 'app-'));
    const prebuilt = join(app, PREBUILT_HELPER);
    writeFileSync(prebuilt, (await compileNativeHelper()) as Buffer, { mode: 0o755 });
    process.argv[1] = join(app, 'main.js');
    expect(await nativeHelper()).toEqual({ path: prebuilt });
    const lines: string[] = [];
    const run = await helper.spawn({
      file: '/bin/echo',
      args: ['from the prebuilt helper'],
      dir: join(app, 'work', 'job'),
      env: {},
      onLine: (l) => lines.push(l),
    });
    expect(await run.exit).toEqual({ code: 0, signal: null });
    expect(lines).toEqual(['from the prebuilt helper']);
    expect(readlinkSync(`/proc/${(await helper.process()).pid}/exe`)).toBe(prebuilt);
  });
});

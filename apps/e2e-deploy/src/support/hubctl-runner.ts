import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { WORKSPACE_ROOT } from '@hub/testing';

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `node tools/hubctl/hubctl.mjs …` as a user would, with only the given environment. */
export function runHubctl(args: string[], env: Record<string, string>, stdin?: string): Promise<CliResult> {
  const child = spawn(process.execPath, [join(WORKSPACE_ROOT, 'tools/hubctl/hubctl.mjs'), ...args], {
    cwd: WORKSPACE_ROOT,
    env: { PATH: process.env['PATH'] ?? '', ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  // hubctl may exit (usage error) before reading stdin: a broken pipe then is expected, not a failure.
  child.stdin.on('error', () => undefined);
  child.stdin.end(stdin ?? '');
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/**
 * The admin token of the all-in-one mode when HUB_ADMIN_TOKEN is unset: generated on first
 * start and kept (readable by the owner only) in the data directory, so it stays the same.
 */
export type AdminTokenSource = 'generated' | 'data-dir' | 'env';

export function adminTokenFor(dataDir: string): { token: string; source: AdminTokenSource } {
  const dir = resolve(dataDir);
  const file = join(dir, 'admin-token');
  if (existsSync(file)) return { token: readFileSync(file, 'utf8').trim(), source: 'data-dir' };
  mkdirSync(dir, { recursive: true });
  const token = `hubadmin_${randomBytes(24).toString('base64url')}`;
  writeFileSync(file, token + '\n', { mode: 0o600 });
  return { token, source: 'generated' };
}

/** HUB_SECRET_KEY of the all-in-one mode when unset: generated once, kept beside the admin token. */
export function secretKeyFor(dataDir: string): string {
  const dir = resolve(dataDir);
  const file = join(dir, 'secret-key');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dir, { recursive: true });
  const key = randomBytes(32).toString('base64url');
  writeFileSync(file, key + '\n', { mode: 0o600 });
  return key;
}

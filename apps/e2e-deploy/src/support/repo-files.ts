import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { WORKSPACE_ROOT } from '@hub/testing';

export function repoFile(path: string): string {
  return readFileSync(join(WORKSPACE_ROOT, path), 'utf8');
}

export function repoDir(path: string): string[] {
  return readdirSync(join(WORKSPACE_ROOT, path)).sort();
}

export function repoExists(path: string): boolean {
  return existsSync(join(WORKSPACE_ROOT, path));
}

/** Every file under a directory, as repo-relative paths (node_modules skipped), sorted. */
export function repoTree(path: string): string[] {
  return readdirSync(join(WORKSPACE_ROOT, path), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(relative(WORKSPACE_ROOT, e.parentPath), e.name))
    .filter((f) => !f.split('/').includes('node_modules'))
    .sort();
}

/**
 * Every document of a YAML file as plain data. A syntax error fails the test instead of
 * yielding partial data. `merge` resolves `<<:` keys, as Docker Compose does.
 */
export function yamlDocuments(path: string): unknown[] {
  const docs = parseAllDocuments(repoFile(path), { merge: true });
  for (const doc of docs) {
    if (doc.errors.length > 0) throw new Error(`${path}: ${doc.errors.map((e) => e.message).join('; ')}`);
  }
  return docs.map((doc) => doc.toJSON() as unknown).filter((d) => d !== null && d !== undefined);
}

import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { WORKSPACE_ROOT } from '@hub/testing';
import { type K8sObject } from './k8s-objects';

/** The kustomizations a cluster applies: the base and each overlay. */
export const KUSTOMIZATIONS = ['k8s/base', 'k8s/overlays/dev', 'k8s/overlays/prod'];

/**
 * What `kubectl apply -k <dir>` would send, rendered by kubectl's own kustomize (no cluster
 * needed). kubectl ships in this project's machine image; without it the test says so.
 */
export function renderKustomization(dir: string): K8sObject[] {
  let out: string;
  try {
    out = execFileSync('kubectl', ['kustomize', join(WORKSPACE_ROOT, dir)], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  } catch (err) {
    const e = err as { code?: string; stderr?: string };
    if (e.code === 'ENOENT')
      throw new Error('kubectl is not installed: it renders the kustomizations (`kubectl kustomize`)');
    throw new Error(`kubectl kustomize ${dir} failed: ${e.stderr ?? String(err)}`);
  }
  return parseAllDocuments(out)
    .map((d) => d.toJSON() as K8sObject)
    .filter((o) => o !== null);
}

/** Kubernetes quantities as numbers: cores for CPU ("500m", "2"), bytes for memory ("512Mi", "2Gi"). */
export function quantity(q: string | number): number {
  const m = /^([0-9.]+)(m|Ki|Mi|Gi|Ti|k|M|G)?$/.exec(String(q));
  if (!m) throw new Error(`not a quantity: ${q}`);
  const unit = { m: 1e-3, Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40, k: 1e3, M: 1e6, G: 1e9 }[m[2] ?? ''] ?? 1;
  return Number(m[1]) * unit;
}

/**
 * Kubernetes' own OpenAPI schemas, as compiled validators in `kubernetes-models` 4.5.1 (pinned
 * in package.json): types, required fields, enums and formats (quantities, ports) of every
 * built-in kind. Unknown fields are not refused by these schemas (the API server's strict field
 * validation is not reproduced); the manifest specs check the fields the hub relies on.
 */
interface Model {
  validate(): void;
}
type ModelClass = new (data: unknown) => Model;

export const KUBERNETES_MODELS_VERSION = (require('kubernetes-models/package.json') as { version: string }).version;

/** The model class of an apiVersion and kind (`apps/v1` Deployment → kubernetes-models/apps/v1). */
export function modelOf(apiVersion: string, kind: string): ModelClass | undefined {
  try {
    const mod = require(`kubernetes-models/${apiVersion}`) as Record<string, ModelClass | undefined>;
    return mod[kind];
  } catch {
    return undefined;
  }
}

/** The schema errors of one object ('' when it is valid). */
export function schemaErrors(obj: { apiVersion: string; kind: string }): string {
  const Model = modelOf(obj.apiVersion, obj.kind);
  if (!Model) return `no schema for ${obj.apiVersion} ${obj.kind}`;
  try {
    new Model(obj).validate();
    return '';
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}

import { repoDir, yamlDocuments } from './repo-files';

/** The parts of Kubernetes objects these tests read; everything else is left untyped. */
export interface Probe {
  httpGet?: { path?: string; port?: string | number };
}

export interface Container {
  name: string;
  image?: string;
  command?: string[];
  ports?: { name?: string; containerPort: number }[];
  envFrom?: { configMapRef?: { name: string }; secretRef?: { name: string } }[];
  env?: {
    name: string;
    value?: string;
    valueFrom?: { secretKeyRef?: { name: string; key: string }; configMapKeyRef?: { name: string; key: string } };
  }[];
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  livenessProbe?: Probe;
  readinessProbe?: Probe;
  securityContext?: { runAsNonRoot?: boolean; readOnlyRootFilesystem?: boolean; allowPrivilegeEscalation?: boolean };
}

export interface PodSpec {
  securityContext?: { runAsNonRoot?: boolean; runAsUser?: number };
  restartPolicy?: string;
  containers: Container[];
  initContainers?: Container[];
}

export interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string> };
  data?: Record<string, string>;
  stringData?: Record<string, string>;
  spec?: {
    replicas?: number;
    selector?: { matchLabels?: Record<string, string> } | Record<string, string>;
    template?: { metadata?: { labels?: Record<string, string>; annotations?: Record<string, string> }; spec: PodSpec };
    backoffLimit?: number;
    ttlSecondsAfterFinished?: number;
    ports?: { name?: string; port: number; targetPort?: string | number }[];
    type?: string;
    scaleTargetRef?: { kind: string; name: string };
    minReplicas?: number;
    metrics?: { type: string; resource?: { name: string; target: { averageUtilization?: number } } }[];
  };
}

/** The kustomize base; the overlays (k8s/overlays/<name>) patch it. */
export const K8S_BASE = 'k8s/base';

/** Every object in every k8s/base/*.yaml file as written (not rendered), with the file it came from. */
export function k8sObjects(): { file: string; obj: K8sObject }[] {
  return repoDir(K8S_BASE)
    .filter((f) => f.endsWith('.yaml') && f !== 'kustomization.yaml')
    .flatMap((f) => yamlDocuments(`${K8S_BASE}/${f}`).map((obj) => ({ file: f, obj: obj as K8sObject })));
}

export function byKind(kind: string): K8sObject[] {
  return k8sObjects()
    .filter((o) => o.obj.kind === kind)
    .map((o) => o.obj);
}

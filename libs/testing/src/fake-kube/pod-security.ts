import { type Obj } from './fake-kubelet';

const RESTRICTED_VOLUMES = ['configMap', 'csi', 'downwardAPI', 'emptyDir', 'ephemeral'];
const RESTRICTED_VOLUMES_ALSO = ['persistentVolumeClaim', 'projected', 'secret'];

/**
 * The `restricted` Pod Security Standard (as PodSecurity admission enforces it on a namespace
 * labelled pod-security.kubernetes.io/enforce=restricted): the first rule a pod spec breaks, or
 * undefined. https://kubernetes.io/docs/concepts/security/pod-security-standards/
 */
export function restrictedViolation(pod: Obj): string | undefined {
  if (pod.hostNetwork || pod.hostPID || pod.hostIPC) return 'host namespaces are forbidden';
  for (const v of (pod.volumes ?? []) as Obj[]) {
    const kind = Object.keys(v).find((k) => k !== 'name');
    if (!kind || ![...RESTRICTED_VOLUMES, ...RESTRICTED_VOLUMES_ALSO].includes(kind))
      return `volume type ${kind} is forbidden`;
  }
  const podCtx = (pod.securityContext ?? {}) as Obj;
  if (podCtx.runAsUser === 0) return 'runAsUser 0 is forbidden';
  const containers = [...((pod.initContainers ?? []) as Obj[]), ...((pod.containers ?? []) as Obj[])];
  for (const c of containers) {
    const ctx = (c.securityContext ?? {}) as Obj;
    const where = `container ${c.name}`;
    if (ctx.privileged) return `${where}: privileged`;
    if (ctx.allowPrivilegeEscalation !== false) return `${where}: allowPrivilegeEscalation must be false`;
    const drop = (ctx.capabilities?.drop ?? []) as string[];
    if (!drop.includes('ALL')) return `${where}: capabilities must drop ALL`;
    const add = (ctx.capabilities?.add ?? []) as string[];
    if (add.some((a) => a !== 'NET_BIND_SERVICE')) return `${where}: only NET_BIND_SERVICE may be added`;
    if ((ctx.runAsNonRoot ?? podCtx.runAsNonRoot) !== true) return `${where}: runAsNonRoot must be true`;
    if (ctx.runAsUser === 0) return `${where}: runAsUser 0 is forbidden`;
    const seccomp = (ctx.seccompProfile ?? podCtx.seccompProfile) as Obj | undefined;
    if (seccomp?.type !== 'RuntimeDefault' && seccomp?.type !== 'Localhost')
      return `${where}: seccompProfile must be RuntimeDefault or Localhost`;
    if (((c.ports ?? []) as Obj[]).some((p) => p.hostPort)) return `${where}: hostPort is forbidden`;
  }
  return undefined;
}

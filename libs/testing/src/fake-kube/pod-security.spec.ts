import { restrictedViolation } from './pod-security';

const ok = {
  securityContext: { runAsNonRoot: true, runAsUser: 1000, seccompProfile: { type: 'RuntimeDefault' } },
  containers: [
    {
      name: 'job',
      image: 'alpine:3',
      securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } },
    },
  ],
};
const withContainer = (ctx: object): object => ({
  ...ok,
  containers: [{ ...ok.containers[0], securityContext: { ...ok.containers[0]?.securityContext, ...ctx } }],
});

describe('the restricted Pod Security Standard (as the fake API server enforces it)', () => {
  it('admits a non-root pod with the runtime seccomp profile, no escalation and no capabilities', () => {
    expect(restrictedViolation(ok)).toBeUndefined();
  });

  it.each([
    [
      'runAsNonRoot missing',
      { ...ok, securityContext: { seccompProfile: { type: 'RuntimeDefault' } } },
      /runAsNonRoot/,
    ],
    ['no seccomp profile', { ...ok, securityContext: { runAsNonRoot: true } }, /seccompProfile/],
    ['seccomp Unconfined', withContainer({ seccompProfile: { type: 'Unconfined' } }), /seccompProfile/],
    ['escalation allowed', withContainer({ allowPrivilegeEscalation: true }), /allowPrivilegeEscalation/],
    ['capabilities kept', withContainer({ capabilities: { drop: ['NET_RAW'] } }), /drop ALL/],
    ['a capability added', withContainer({ capabilities: { drop: ['ALL'], add: ['SYS_ADMIN'] } }), /NET_BIND/],
    ['privileged', withContainer({ privileged: true }), /privileged/],
    ['root uid', withContainer({ runAsUser: 0 }), /runAsUser 0/],
    ['host network', { ...ok, hostNetwork: true }, /host namespaces/],
    ['hostPath volume', { ...ok, volumes: [{ name: 'h', hostPath: { path: '/' } }] }, /hostPath/],
  ])('refuses %s', (_name, pod, why) => {
    expect(restrictedViolation(pod)).toMatch(why);
  });
});

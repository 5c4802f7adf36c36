import {
  ALL_IN_ONE,
  configClasses,
  configClassesOf,
  deployableApps,
  distributedApps,
  GATEWAY,
  services,
} from './workspace';

// The deployment specs check "every discovered X has Y": an empty discovery would pass them all.
describe('workspace discovery (the deployment specs are only as good as it is)', () => {
  it('finds at least the apps there are today, the gateway and the all-in-one hub among them', () => {
    expect(deployableApps()).toEqual(expect.arrayContaining(['gateway', 'credentials', 'organizations', 'hub']));
    expect(deployableApps()).toEqual(expect.arrayContaining([GATEWAY, ALL_IN_ONE]));
    expect(deployableApps()).not.toContain('e2e-deploy');
    // Examples run beside a hub, never in its deployment (decision 0702).
    expect(deployableApps()).not.toContain('audit-mirror');
  });

  it('finds the services that runService starts, and only deployable apps among them', () => {
    expect(services()).toEqual(expect.arrayContaining(['credentials', 'organizations']));
    expect(services()).not.toContain(GATEWAY);
    expect(services()).not.toContain(ALL_IN_ONE);
    expect(services().filter((s) => !deployableApps().includes(s))).toEqual([]);
  });

  it('deploys the gateway and every service to k8s, never the all-in-one hub', () => {
    expect(distributedApps()).toEqual(expect.arrayContaining([GATEWAY, ...services()]));
    expect(distributedApps()).not.toContain(ALL_IN_ONE);
  });

  it('finds HubConfig and the config classes extending it, wherever they sit under libs/*/src or libs/*/*/src', () => {
    const found = configClasses();
    expect(found).toEqual(
      expect.arrayContaining([
        { name: 'HubConfig', file: 'libs/config/src/hub-config.ts' },
        { name: 'GatewayConfig', file: expect.stringMatching(/^libs\/service-gateway\/src\/.*gateway\.config\.ts$/) },
        {
          name: 'CredentialsConfig',
          file: expect.stringMatching(/^libs\/credentials\/service\/src\/.*credentials\.config\.ts$/),
        },
        {
          name: 'JobsConfig',
          file: expect.stringMatching(/^libs\/jobs\/service\/src\/.*jobs\.config\.ts$/),
        },
        {
          name: 'OrganizationsConfig',
          file: expect.stringMatching(/^libs\/organizations\/service\/src\/.*organizations\.config\.ts$/),
        },
        {
          name: 'WebhooksConfig',
          file: expect.stringMatching(/^libs\/webhooks\/service\/src\/.*webhooks\.config\.ts$/),
        },
      ]),
    );
    expect(new Set(found.map((c) => c.name)).size).toBe(found.length);
  });

  it("ties each of the gateway's and services' main.ts to its config class", () => {
    const names = (app: string): string[] => configClassesOf(app).map((c) => c.name);
    expect(names('gateway')).toEqual(['GatewayConfig']);
    expect(names('credentials')).toEqual(['CredentialsConfig']);
    expect(names('organizations')).toEqual(['OrganizationsConfig']);
    expect(names('jobs')).toEqual(['JobsConfig']);
    expect(names('webhooks')).toEqual(['WebhooksConfig']);
  });
});

// The upgrade on Kubernetes (k8s/local/upgrade.sh, run by test-k8s.sh with HUB_K8S_UPGRADE set):
// the previous release in a namespace of its own, rolled to this tree one Deployment at a time.
// Only *.k8s-upgrade-spec.ts files, once the cluster and the previous release are up (HUB_K8S_*).
process.env.HUB_TEST_TIER ??= 'e2e';
module.exports = {
  displayName: 'e2e-deploy-k8s-upgrade',
  preset: '../../jest.preset.js',
  testMatch: ['**/*.k8s-upgrade-spec.ts'],
  // Nothing here needs the machine's own Postgres or NATS: the namespace runs its own.
  globalSetup: undefined,
  testTimeout: 600000,
};

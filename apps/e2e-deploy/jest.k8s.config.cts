// `npm run test:k8s` (k8s/local/test-k8s.sh): the hub on a real Kubernetes 1.20 node, driven through
// its gateway. Not part of `nx test-e2e e2e-deploy` (offline): only *.k8s-spec.ts files, run by the script
// once the cluster and the hub are up (it passes their addresses in HUB_K8S_*).
// End to end, like the e2e tier: set before the preset reads it.
process.env.HUB_TEST_TIER ??= 'e2e';
module.exports = {
  displayName: 'e2e-deploy-k8s',
  preset: '../../jest.preset.js',
  testMatch: ['**/*.k8s-spec.ts'],
  // Nothing here needs the machine's own Postgres or NATS: the cluster runs its own.
  globalSetup: undefined,
  testTimeout: 300000,
};

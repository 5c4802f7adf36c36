// `npm run test:upgrade` (docker/local/test-upgrade.sh): the previous release on Compose upgraded to
// this tree under traffic, for real. Not part of `nx test e2e-deploy` (offline) nor of test:deploy.
module.exports = {
  displayName: 'e2e-deploy-upgrade',
  preset: '../../jest.preset.js',
  testMatch: ['**/*.upgrade-spec.ts'],
  // Nothing here needs the machine's own Postgres or NATS: the stack brings its own.
  globalSetup: undefined,
  testTimeout: 600000,
};

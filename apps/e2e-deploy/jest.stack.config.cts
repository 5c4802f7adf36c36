// `npm run test:deploy` (docker/local/test-deploy.sh): the compose stack for real, against a Docker
// engine. Not part of `nx test-e2e e2e-deploy` (that one is offline): only *.stack-spec.ts files here.
// End to end, like the e2e tier: set before the preset reads it.
process.env.HUB_TEST_TIER ??= 'e2e';
module.exports = {
  displayName: 'e2e-deploy-stack',
  preset: '../../jest.preset.js',
  testMatch: ['**/*.stack-spec.ts'],
  // Nothing here needs the machine's own Postgres or NATS: the stack brings its own.
  globalSetup: undefined,
  testTimeout: 600000,
};

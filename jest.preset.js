const nxPreset = require('@nx/jest/preset').default;

// The tier a run takes (decision 0017): `nx test <project>` the unit specs, `nx test-int` and
// `nx test-e2e` (tools/nx-plugin's test-tiers plugin sets HUB_TEST_TIER) the other two. Set here,
// in the jest process, so its workers and the global setup see the same tier.
const TIER_FILES = { unit: '**/*.spec.ts', int: '**/*.int-spec.ts', e2e: '**/*.e2e-spec.ts' };
process.env.HUB_TEST_TIER ??= 'unit';
const tierFiles = TIER_FILES[process.env.HUB_TEST_TIER];
if (!tierFiles) throw new Error(`HUB_TEST_TIER=${process.env.HUB_TEST_TIER}: expected unit, int or e2e`);

// swc instead of ts-jest: much faster on 2 cores. Decorator metadata must stay on, or
// ValidationPipe loses the DTO types and silently validates nothing (toolchain trap 2).
module.exports = {
  ...nxPreset,
  testEnvironment: 'node',
  testMatch: [tierFiles],
  transform: {
    '^.+\\.[tj]s$': [
      '@swc/jest',
      {
        jsc: {
          parser: { syntax: 'typescript', decorators: true },
          transform: { legacyDecorator: true, decoratorMetadata: true },
          target: 'es2022',
          keepClassNames: true,
        },
        module: { type: 'commonjs' },
        sourceMaps: 'inline',
      },
    ],
  },
  // @kubernetes/client-node 1.x and the OIDC libraries it imports are ES modules only: jest (CommonJS
  // here) has swc turn them into CommonJS like our own files; everything else in node_modules is
  // loaded as it is. Node itself requires them natively (require(esm), Node 20.19+), so the
  // webpack builds keep them external (decision 0629).
  transformIgnorePatterns: ['/node_modules/(?!(@kubernetes/client-node|openid-client|oauth4webapi|jose)/)'],
  moduleFileExtensions: ['ts', 'js', 'mjs', 'json'],
  // A ceiling, not a deadline: the end-to-end tier's hooks start whole hubs (processes, databases,
  // containers), which on a busy machine take longer than 30 s; tests wait on progress themselves.
  testTimeout: process.env.HUB_TEST_TIER === 'e2e' ? 180_000 : 30_000,
  // Each end-to-end test with its time in the log, also when a run holds several files: where CI's
  // minutes go (it has 60 of them).
  verbose: process.env.HUB_TEST_TIER === 'e2e',
  setupFiles: [require.resolve('./libs/testing/src/jest-setup.ts')],
  globalSetup: require.resolve('./libs/testing/src/jest-global-setup.ts'),
};

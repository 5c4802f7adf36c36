const nxPreset = require('@nx/jest/preset').default;

// swc instead of ts-jest: much faster on 2 cores. Decorator metadata must stay on, or
// ValidationPipe loses the DTO types and silently validates nothing (toolchain trap 2).
module.exports = {
  ...nxPreset,
  testEnvironment: 'node',
  testMatch: ['**/?(*.)+(spec|int-spec|e2e-spec).ts'],
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
  moduleFileExtensions: ['ts', 'js', 'mjs', 'json'],
  testTimeout: 30000,
  setupFiles: [require.resolve('./libs/testing/src/jest-setup.ts')],
  globalSetup: require.resolve('./libs/testing/src/jest-global-setup.ts'),
};

import baseConfig from '../../eslint.config.mjs';

export default [
  ...baseConfig,
  { files: ['**/*.tsx', '**/*.ts'], rules: { '@typescript-eslint/no-explicit-any': 'error' } },
];

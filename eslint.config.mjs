import nx from '@nx/eslint-plugin';

export default [
  ...nx.configs['flat/base'],
  ...nx.configs['flat/typescript'],
  ...nx.configs['flat/javascript'],
  { ignores: ['**/dist', '**/out-tsc', '**/node_modules', 'tmp', 'data'] },
  {
    files: ['**/*.ts', '**/*.js', '**/*.mjs'],
    rules: {
      // Boundaries are enforced by lint, not review (style.md rule 9).
      '@nx/enforce-module-boundaries': [
        'error',
        {
          enforceBuildableLibDependency: true,
          allow: ['^.*/eslint(\\.base)?\\.config\\.[cm]?[jt]s$', '^(\\.\\./)+tools/webpack/'],
          depConstraints: [
            // Feature first, tier second (decision 0019): libs/<feature>/{contract,http,service}.
            // A contract (libs/contracts is the shared one) holds descriptors, DTOs and views only.
            { sourceTag: 'type:contract', onlyDependOnLibsWithTags: ['type:contract'] },
            { sourceTag: 'type:util', onlyDependOnLibsWithTags: ['type:contract', 'type:util', 'type:testing'] },
            // The walls: `http` and `service` never import each other, only contracts and shared libs.
            // `type:edge` is the gateway's core (libs/service-gateway) every `http` tier builds on.
            {
              sourceTag: 'type:http',
              onlyDependOnLibsWithTags: ['type:contract', 'type:util', 'type:testing', 'type:edge'],
            },
            { sourceTag: 'type:edge', onlyDependOnLibsWithTags: ['type:contract', 'type:util', 'type:testing'] },
            { sourceTag: 'type:service', onlyDependOnLibsWithTags: ['type:contract', 'type:util', 'type:testing'] },
            { sourceTag: 'type:testing', onlyDependOnLibsWithTags: ['type:contract', 'type:util'] },
            { sourceTag: 'type:package', onlyDependOnLibsWithTags: [] },
            // Examples use only what a subscriber outside this repository could install.
            { sourceTag: 'type:example', onlyDependOnLibsWithTags: ['type:package', 'type:testing'] },
            { sourceTag: 'type:e2e', onlyDependOnLibsWithTags: ['type:testing', 'type:contract', 'type:util'] },
            { sourceTag: 'scope:deploy', onlyDependOnLibsWithTags: ['scope:shared'] },
            {
              sourceTag: 'scope:hub',
              onlyDependOnLibsWithTags: [
                'scope:gateway',
                'scope:credentials',
                'scope:organizations',
                'scope:notifications',
                'scope:jobs',
                'scope:webhooks',
                'scope:shared',
              ],
            },
            {
              sourceTag: 'type:app',
              onlyDependOnLibsWithTags: [
                'type:service',
                'type:http',
                'type:edge',
                'type:contract',
                'type:util',
                'type:testing',
              ],
            },
            { sourceTag: 'scope:credentials', onlyDependOnLibsWithTags: ['scope:credentials', 'scope:shared'] },
            { sourceTag: 'scope:organizations', onlyDependOnLibsWithTags: ['scope:organizations', 'scope:shared'] },
            { sourceTag: 'scope:notifications', onlyDependOnLibsWithTags: ['scope:notifications', 'scope:shared'] },
            { sourceTag: 'scope:jobs', onlyDependOnLibsWithTags: ['scope:jobs', 'scope:shared'] },
            { sourceTag: 'scope:webhooks', onlyDependOnLibsWithTags: ['scope:webhooks', 'scope:shared'] },
            { sourceTag: 'scope:gateway', onlyDependOnLibsWithTags: ['scope:gateway', 'scope:shared'] },
            { sourceTag: 'scope:receiver', onlyDependOnLibsWithTags: [] },
            // The web console is a browser app: it reaches the hub over HTTP only, never through a lib.
            { sourceTag: 'scope:console', onlyDependOnLibsWithTags: [] },
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.ts'],
    // Files with decorators keep value imports: Nest's DI reads emitted decorator metadata.
    languageOptions: { parserOptions: { emitDecoratorMetadata: true, experimentalDecorators: true } },
    rules: {
      '@typescript-eslint/consistent-type-imports': [
        'error',
        { fixStyle: 'inline-type-imports', disallowTypeAnnotations: false },
      ],
      '@typescript-eslint/no-explicit-any': 'error',
      // Config classes annotate defaults on purpose: swc emits design:type only from annotations.
      '@typescript-eslint/no-inferrable-types': ['error', { ignoreProperties: true }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      // A framework's internals change without notice: an upgrade must break the build, not the
      // hub silently (issue 23). Package roots only; `@nestjs/platform-fastify` is a root.
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^@nestjs/[^/]+/.+',
              message:
                "Import from the package root ('@nestjs/common', '@nestjs/core'…): paths below it are Nest's internals.",
            },
            {
              regex: '^(class-transformer|class-validator|fastify|typeorm|nats|rxjs|pg)/.+',
              message: "Import from the package root: paths below it are the library's internals.",
            },
            {
              regex: '^(@[^/]+/)?[^/.@][^/]*/(dist|cjs|esm|lib|build|src|types|internal)(/|$)',
              message: 'Import what the package exports, not its build output: files there are its internals.',
            },
          ],
        },
      ],
    },
  },
];

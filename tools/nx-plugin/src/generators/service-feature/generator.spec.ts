import { existsSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { type Tree } from '@nx/devkit';
import { createTreeWithEmptyWorkspace } from '@nx/devkit/testing';
import * as ts from 'typescript';
import { serviceFeatureGenerator } from './generator';

const WORKSPACE = resolve(__dirname, '../../../../..');

/** The real files the generator reads and edits, copied into the in-memory tree. */
const SEEDED = [
  'libs/credentials/service/src/credentials.module.ts',
  'libs/credentials/service/src/credentials.di.ts',
  'libs/credentials/contract/src/index.ts',
  'libs/credentials/contract/src/credentials.rpc.ts',
  'libs/organizations/service/src/organizations.module.ts',
  'libs/organizations/service/src/organizations.di.ts',
  'libs/organizations/contract/src/index.ts',
  'libs/organizations/contract/src/organizations.rpc.ts',
  'libs/jobs/service/src/jobs.module.ts',
  'libs/jobs/service/src/jobs.di.ts',
  'libs/jobs/contract/src/index.ts',
  'libs/jobs/contract/src/jobs.rpc.ts',
];

function seededTree(): Tree {
  // No formatter: the test sees what the generator wrote (Prettier, ESM, does not load under Jest).
  const tree = createTreeWithEmptyWorkspace({ formatter: 'none' });
  for (const f of SEEDED) tree.write(f, readFileSync(join(WORKSPACE, f), 'utf-8'));
  return tree;
}

/**
 * Type-checks `files` as they are in the tree, against the real workspace for everything else
 * (libs, node_modules), with the workspace's compiler options: the generated code must compile
 * where it would land.
 */
function typeErrors(tree: Tree, files: string[]): string[] {
  const config = ts.readConfigFile(join(WORKSPACE, 'tsconfig.base.json'), ts.sys.readFile);
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, WORKSPACE);
  const options: ts.CompilerOptions = { ...parsed.options, noEmit: true, types: ['node', 'jest'] };
  const inTree = (path: string): string | null => {
    const rel = relative(WORKSPACE, path);
    return rel.startsWith('..') || !tree.exists(rel) ? null : (tree.read(rel, 'utf-8') as string);
  };
  const host = ts.createCompilerHost(options);
  const readFile = host.readFile.bind(host);
  const getSourceFile = host.getSourceFile.bind(host);
  host.readFile = (path) => inTree(path) ?? readFile(path);
  host.fileExists = (path) => inTree(path) !== null || existsSync(path);
  host.directoryExists = (path) => existsSync(path) || tree.children(relative(WORKSPACE, path)).length > 0;
  host.getSourceFile = (path, language, onError) => {
    const text = inTree(path);
    return text === null ? getSourceFile(path, language, onError) : ts.createSourceFile(path, text, language);
  };
  const roots = files.map((f) => join(WORKSPACE, f));
  const program = ts.createProgram(roots, options, host);
  return roots.flatMap((root) =>
    ts
      .getPreEmitDiagnostics(program, program.getSourceFile(root))
      .map(
        (d) =>
          `${relative(WORKSPACE, d.file?.fileName ?? root)}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`,
      ),
  );
}

describe('service-feature generator', () => {
  const options = { service: 'credentials', feature: 'badges', verb: 'get', thing: 'badge' };
  const dir = 'libs/credentials/service/src/badges';

  it('writes handler, use case, store, errors and spec, the contract, and registers them', async () => {
    const tree = seededTree();
    await serviceFeatureGenerator(tree, options);

    const written = [
      'badges.handler.ts',
      'get-badge.use-case.ts',
      'badges.store.ts',
      'badges.errors.ts',
      'get-badge.use-case.spec.ts',
    ];
    for (const f of written) expect(tree.exists(`${dir}/${f}`)).toBe(true);
    expect(tree.read(`${dir}/badges.handler.ts`, 'utf-8')).toContain('@RpcHandler(CredentialsRpc.GetBadge)');
    expect(tree.read(`${dir}/get-badge.use-case.ts`, 'utf-8')).toContain('export class GetBadgeUseCase');
    expect(tree.read(`${dir}/badges.store.ts`, 'utf-8')).toContain('FROM credentials.badges WHERE id = $1');
    expect(tree.read(`${dir}/badges.errors.ts`, 'utf-8')).toContain("'BADGE_NOT_FOUND'");

    const rpc = tree.read('libs/credentials/contract/src/credentials.rpc.ts', 'utf-8') as string;
    expect(rpc).toMatch(/GetBadge: rpc<GetBadgeRpc, BadgeView>\('credentials\.badge\.get', GetBadgeRpc\)/);
    expect(rpc.indexOf('GetBadge: rpc')).toBeGreaterThan(rpc.indexOf('export const CredentialsRpc = {'));
    expect(tree.read('libs/credentials/contract/src/index.ts', 'utf-8')).toContain("export * from './get-badge.rpc';");

    const module = tree.read('libs/credentials/service/src/credentials.module.ts', 'utf-8') as string;
    expect(module).toMatch(/controllers: \[[^\]]*BadgesHandler/);
    expect(module).toMatch(/providers: \[[^\]]*GetBadgeUseCase/);

    // Everything it wrote or edited compiles where it lands, against the real libraries.
    const changed = [
      ...written.map((f) => `${dir}/${f}`),
      'libs/credentials/service/src/credentials.module.ts',
      'libs/credentials/contract/src/credentials.rpc.ts',
    ];
    expect(typeErrors(tree, changed)).toEqual([]);
  }, 120_000);

  it('adds a second operation beside an existing feature without touching its files, and says what to add', async () => {
    const tree = seededTree();
    await serviceFeatureGenerator(tree, options);
    const handler = tree.read(`${dir}/badges.handler.ts`, 'utf-8');
    const print = await serviceFeatureGenerator(tree, { ...options, verb: 'revoke' });

    expect(tree.exists(`${dir}/revoke-badge.use-case.ts`)).toBe(true);
    expect(tree.read(`${dir}/badges.handler.ts`, 'utf-8')).toBe(handler);
    const module = tree.read('libs/credentials/service/src/credentials.module.ts', 'utf-8') as string;
    expect(module.match(/BadgesHandler/g)).toHaveLength(2); // its import and one listing, not two
    expect(module).toContain('RevokeBadgeUseCase');
    const info = jest.spyOn(console, 'info').mockImplementation(() => undefined);
    print();
    const said = info.mock.calls.flat().join('\n');
    info.mockRestore();
    expect(said).toContain('add @RpcHandler(CredentialsRpc.RevokeBadge)');
  });

  it('in a service split by areas, writes the feature its own area module and lists it in AREAS', async () => {
    const tree = seededTree();
    await serviceFeatureGenerator(tree, { ...options, service: 'organizations', rpcGroup: 'OrganizationsRpc' });

    const at = 'libs/organizations/service/src/badges';
    const area = tree.read(`${at}/badges.module.ts`, 'utf-8') as string;
    expect(area).toContain('export class BadgesModule');
    expect(area).toMatch(/controllers: \[BadgesHandler\]/);
    expect(area).toMatch(/providers: \[GetBadgeUseCase\]/);
    const service = tree.read('libs/organizations/service/src/organizations.module.ts', 'utf-8') as string;
    expect(service).toMatch(/const AREAS = \[BadgesModule,/);
    expect(service).not.toContain('GetBadgeUseCase');
    expect(tree.read(`${at}/badges.store.ts`, 'utf-8')).toContain('FROM organizations.badges WHERE id = $1');

    // A second operation of the area goes in the area's module, not the service's.
    await serviceFeatureGenerator(tree, {
      ...options,
      service: 'organizations',
      rpcGroup: 'OrganizationsRpc',
      verb: 'revoke',
    });
    expect(tree.read(`${at}/badges.module.ts`, 'utf-8')).toMatch(/providers: \[RevokeBadgeUseCase, GetBadgeUseCase\]/);
    expect(tree.read('libs/organizations/service/src/organizations.module.ts', 'utf-8')).toBe(service);
    expect(
      typeErrors(tree, [
        `${at}/badges.module.ts`,
        `${at}/get-badge.use-case.ts`,
        'libs/organizations/service/src/organizations.module.ts',
      ]),
    ).toEqual([]);
  }, 120_000);

  it('refuses the old shapes: a libs/service-<name> lib, a <name>.tokens.ts', async () => {
    const tree = seededTree();
    tree.write('libs/service-billing/src/billing.module.ts', 'export {};\n');
    await expect(serviceFeatureGenerator(tree, { ...options, service: 'billing' })).rejects.toThrow(
      /libs\/service-billing is the old layout/,
    );
    tree.rename('libs/credentials/service/src/credentials.di.ts', 'libs/credentials/service/src/credentials.tokens.ts');
    await expect(serviceFeatureGenerator(tree, options)).rejects.toThrow(
      /credentials\.tokens\.ts: DI tokens live in credentials\.di\.ts/,
    );
  });

  it('writes into the jobs feature folder (its di file, its contract)', async () => {
    const tree = seededTree();
    await serviceFeatureGenerator(tree, { ...options, service: 'jobs' });

    const at = 'libs/jobs/service/src/badges';
    expect(tree.read(`${at}/badges.handler.ts`, 'utf-8')).toContain('@RpcHandler(JobsRpc.GetBadge)');
    expect(tree.read(`${at}/badges.store.ts`, 'utf-8')).toContain('FROM jobs.badges WHERE id = $1');
    expect(tree.read(`${at}/get-badge.use-case.ts`, 'utf-8')).toContain("from '../jobs.di'");
    expect(tree.read('libs/jobs/contract/src/jobs.rpc.ts', 'utf-8')).toContain(
      "GetBadge: rpc<GetBadgeRpc, BadgeView>('jobs.badge.get', GetBadgeRpc)",
    );
    expect(tree.read('libs/jobs/contract/src/index.ts', 'utf-8')).toContain("export * from './get-badge.rpc';");
    expect(tree.read('libs/jobs/service/src/jobs.module.ts', 'utf-8')).toMatch(/providers: \[[^\]]*GetBadgeUseCase/);
    expect(tree.exists('libs/service-jobs/src/badges/badges.handler.ts')).toBe(false);
    expect(tree.exists('libs/contracts/src/jobs/get-badge.rpc.ts')).toBe(false);
    expect(
      typeErrors(tree, [
        `${at}/badges.handler.ts`,
        `${at}/get-badge.use-case.ts`,
        'libs/jobs/service/src/jobs.module.ts',
      ]),
    ).toEqual([]);
  }, 120_000);

  it('refuses an operation that exists and a service that does not', async () => {
    const tree = seededTree();
    await serviceFeatureGenerator(tree, options);
    await expect(serviceFeatureGenerator(tree, options)).rejects.toThrow(/get-badge.use-case.ts exists/);
    await expect(serviceFeatureGenerator(tree, { ...options, service: 'billing' })).rejects.toThrow(
      /No service billing/,
    );
  });
});

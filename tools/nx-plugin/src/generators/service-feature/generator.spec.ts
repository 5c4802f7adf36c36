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
  'libs/credentials/http/src/credentials.module.ts',
  'libs/organizations/http/src/organizations-api.module.ts',
  'libs/jobs/http/src/jobs.module.ts',
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

  /** What the generator's callback prints. */
  function printed(print: () => void): string {
    const info = jest.spyOn(console, 'info').mockImplementation(() => undefined);
    print();
    const said = info.mock.calls.flat().join('\n');
    info.mockRestore();
    return said;
  }

  it('writes the three tiers: the use case serving its RPC (no handler), the contract, the http route', async () => {
    const tree = seededTree();
    const print = await serviceFeatureGenerator(tree, options);

    const written = ['get-badge.use-case.ts', 'badges.store.ts', 'badges.errors.ts', 'get-badge.use-case.spec.ts'];
    for (const f of written) expect(tree.exists(`${dir}/${f}`)).toBe(true);
    expect(tree.children(dir).filter((f) => f.endsWith('.handler.ts'))).toEqual([]);
    const useCase = tree.read(`${dir}/get-badge.use-case.ts`, 'utf-8') as string;
    expect(useCase).toContain('export class GetBadgeUseCase');
    expect(useCase).toMatch(/@RpcHandler\(CredentialsRpc\.GetBadge\)\n\s+async execute\(/);
    expect(tree.read(`${dir}/badges.store.ts`, 'utf-8')).toContain('FROM credentials.badges WHERE id = $1');
    expect(tree.read(`${dir}/badges.errors.ts`, 'utf-8')).toContain("'BADGE_NOT_FOUND'");

    const rpc = tree.read('libs/credentials/contract/src/credentials.rpc.ts', 'utf-8') as string;
    expect(rpc).toMatch(/GetBadge: rpc<GetBadgeRpc, BadgeView>\('credentials\.badge\.get', GetBadgeRpc\)/);
    expect(rpc.indexOf('GetBadge: rpc')).toBeGreaterThan(rpc.indexOf('export const CredentialsRpc = {'));
    expect(tree.read('libs/credentials/contract/src/index.ts', 'utf-8')).toContain("export * from './get-badge.rpc';");

    const module = tree.read('libs/credentials/service/src/credentials.module.ts', 'utf-8') as string;
    expect(module).toMatch(/providers: \[[^\]]*GetBadgeUseCase/);
    expect(module).not.toContain('controllers');

    const http = 'libs/credentials/http/src/badges.controller.ts';
    const controller = tree.read(http, 'utf-8') as string;
    expect(controller).toContain("@Controller('api/badges')");
    expect(controller).toContain("@Get(':id')");
    expect(controller).toContain('this.rpc.call(CredentialsRpc.GetBadge, { id: p.id }, ctx)');
    const api = tree.read('libs/credentials/http/src/credentials.module.ts', 'utf-8') as string;
    expect(api).toContain("import { BadgesController } from './badges.controller';");
    expect(api).toMatch(/controllers: \[BadgesController,/);
    expect(printed(print)).toContain(
      "libs/bus-access/src/access.ts: list CredentialsRpc.GetBadge in the gateway's calls",
    );

    // Everything it wrote or edited compiles where it lands, against the real libraries.
    const changed = [
      ...written.map((f) => `${dir}/${f}`),
      'libs/credentials/service/src/credentials.module.ts',
      'libs/credentials/contract/src/credentials.rpc.ts',
      http,
      'libs/credentials/http/src/credentials.module.ts',
    ];
    expect(typeErrors(tree, changed)).toEqual([]);
  }, 120_000);

  it('adds a second operation beside an existing feature without touching its files, and says what to add', async () => {
    const tree = seededTree();
    await serviceFeatureGenerator(tree, options);
    const store = tree.read(`${dir}/badges.store.ts`, 'utf-8');
    const http = 'libs/credentials/http/src/badges.controller.ts';
    const controller = tree.read(http, 'utf-8');
    const print = await serviceFeatureGenerator(tree, { ...options, verb: 'revoke' });

    expect(tree.read(`${dir}/revoke-badge.use-case.ts`, 'utf-8')).toContain('@RpcHandler(CredentialsRpc.RevokeBadge)');
    expect(tree.read(`${dir}/badges.store.ts`, 'utf-8')).toBe(store);
    expect(tree.read(http, 'utf-8')).toBe(controller);
    const module = tree.read('libs/credentials/service/src/credentials.module.ts', 'utf-8') as string;
    expect(module).toMatch(/providers: \[RevokeBadgeUseCase, GetBadgeUseCase,/);
    const api = tree.read('libs/credentials/http/src/credentials.module.ts', 'utf-8') as string;
    expect(api.match(/BadgesController/g)).toHaveLength(2); // its import and one listing, not two
    const said = printed(print);
    expect(said).toContain(`${dir}/badges.store.ts exists and was kept`);
    expect(said).toContain(`${http} exists and was kept: add a route calling CredentialsRpc.RevokeBadge`);
  });

  it('in a service split by areas, writes the feature its own area module and lists it in AREAS', async () => {
    const tree = seededTree();
    await serviceFeatureGenerator(tree, { ...options, service: 'organizations', rpcGroup: 'OrganizationsRpc' });

    const at = 'libs/organizations/service/src/badges';
    const area = tree.read(`${at}/badges.module.ts`, 'utf-8') as string;
    expect(area).toContain('export class BadgesModule');
    expect(area).not.toContain('controllers');
    expect(area).toMatch(/providers: \[GetBadgeUseCase\]/);
    const service = tree.read('libs/organizations/service/src/organizations.module.ts', 'utf-8') as string;
    expect(service).toMatch(/const AREAS = \[BadgesModule,/);
    expect(service).not.toContain('GetBadgeUseCase');
    expect(tree.read(`${at}/badges.store.ts`, 'utf-8')).toContain('FROM organizations.badges WHERE id = $1');
    const http = 'libs/organizations/http/src/badges/badges.controller.ts';
    expect(tree.read(http, 'utf-8')).toContain('this.rpc.call(OrganizationsRpc.GetBadge, { id: p.id }, ctx)');
    const api = tree.read('libs/organizations/http/src/organizations-api.module.ts', 'utf-8') as string;
    expect(api).toContain("import { BadgesController } from './badges/badges.controller';");
    expect(api).toContain('@Module({ controllers: [BadgesController], imports: [');

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
        http,
        'libs/organizations/http/src/organizations-api.module.ts',
      ]),
    ).toEqual([]);
  }, 120_000);

  it('refuses the old shapes: a libs/service-<name> lib, a <name>.tokens.ts, a feature folder with a handler', async () => {
    const tree = seededTree();
    tree.write('libs/service-billing/src/billing.module.ts', 'export {};\n');
    await expect(serviceFeatureGenerator(tree, { ...options, service: 'billing' })).rejects.toThrow(
      /libs\/service-billing is the old layout/,
    );
    tree.write(`${dir}/badges.handler.ts`, 'export {};\n');
    await expect(serviceFeatureGenerator(tree, options)).rejects.toThrow(
      /badges\/badges\.handler\.ts is the old shape: fold it into its use cases first .*decision 0002/,
    );
    expect(tree.exists(`${dir}/get-badge.use-case.ts`)).toBe(false);
    tree.delete(`${dir}/badges.handler.ts`);
    tree.rename('libs/credentials/service/src/credentials.di.ts', 'libs/credentials/service/src/credentials.tokens.ts');
    await expect(serviceFeatureGenerator(tree, options)).rejects.toThrow(
      /credentials\.tokens\.ts: DI tokens live in credentials\.di\.ts/,
    );
  });

  it('writes into the jobs feature folder (its di file, its contract), a verb other than get a POST route', async () => {
    const tree = seededTree();
    await serviceFeatureGenerator(tree, { ...options, service: 'jobs', verb: 'archive' });

    const at = 'libs/jobs/service/src/badges';
    expect(tree.read(`${at}/archive-badge.use-case.ts`, 'utf-8')).toContain('@RpcHandler(JobsRpc.ArchiveBadge)');
    expect(tree.read(`${at}/badges.store.ts`, 'utf-8')).toContain('FROM jobs.badges WHERE id = $1');
    expect(tree.read(`${at}/archive-badge.use-case.ts`, 'utf-8')).toContain("from '../jobs.di'");
    expect(tree.read('libs/jobs/contract/src/jobs.rpc.ts', 'utf-8')).toContain(
      "ArchiveBadge: rpc<ArchiveBadgeRpc, BadgeView>('jobs.badge.archive', ArchiveBadgeRpc)",
    );
    expect(tree.read('libs/jobs/contract/src/index.ts', 'utf-8')).toContain("export * from './archive-badge.rpc';");
    expect(tree.read('libs/jobs/service/src/jobs.module.ts', 'utf-8')).toMatch(
      /providers: \[[^\]]*ArchiveBadgeUseCase/,
    );
    const http = 'libs/jobs/http/src/badges.controller.ts';
    expect(tree.read(http, 'utf-8')).toMatch(/@Post\(':id\/archive'\)\n\s+@HttpCode\(200\)/);
    expect(tree.read('libs/jobs/http/src/jobs.module.ts', 'utf-8')).toMatch(/controllers: \[BadgesController,/);
    expect(tree.exists('libs/service-jobs/src/badges/archive-badge.use-case.ts')).toBe(false);
    expect(tree.exists('libs/contracts/src/jobs/archive-badge.rpc.ts')).toBe(false);
    expect(
      typeErrors(tree, [
        `${at}/archive-badge.use-case.ts`,
        'libs/jobs/service/src/jobs.module.ts',
        http,
        'libs/jobs/http/src/jobs.module.ts',
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

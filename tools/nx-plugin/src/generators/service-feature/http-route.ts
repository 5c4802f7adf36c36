import { dirname, join, posix } from 'node:path';
import { generateFiles, names, type Tree, visitNotIgnoredFiles } from '@nx/devkit';
import { type FeatureNames } from './generator';

/**
 * The gateway's side of the feature (decision 0019's `http` tier): `<feature>.controller.ts` in
 * `libs/<service>/http/src` (in its `<feature>/` folder when the service is split by areas), one
 * route calling the RPC through the gateway's `RpcClient`, listed in `<Service>ApiModule`. A
 * controller that exists is kept and the route to add is printed.
 */
export function writeHttpRoute(tree: Tree, n: FeatureNames, areas: boolean, todo: string[]): void {
  const httpRoot = `libs/${n.service}/http/src`;
  const route = `a route calling ${n.rpcGroup}.${n.operation} through the RpcClient`;
  if (!tree.exists(httpRoot)) {
    todo.push(`${httpRoot} does not exist: make the feature's http tier (decision 0019) with ${route}`);
    return;
  }
  const dir = areas ? `${httpRoot}/${n.feature}` : httpRoot;
  const file = `${dir}/${n.feature}.controller.ts`;
  const controller = `${n.featureClass}Controller`;
  if (tree.exists(file)) {
    todo.push(`${file} exists and was kept: add ${route}`);
    return;
  }
  generateFiles(tree, join(__dirname, 'files', 'http'), dir, {
    ...n,
    routeMethod: names(n.verb).propertyName,
    tmpl: '',
  });
  const apiModule = `${names(n.service).className}ApiModule`;
  const moduleFile = findClass(tree, httpRoot, apiModule);
  const source = moduleFile ? (tree.read(moduleFile, 'utf-8') as string) : '';
  const at = importsEnd(source);
  // A module of areas (organizations) may list only imports: the controller then opens its list.
  const list = source.includes('controllers: [') ? 'controllers: [' : '@Module({';
  if (!moduleFile || at < 0 || !source.includes(list)) {
    todo.push(`${moduleFile ?? httpRoot}: list ${controller} in ${apiModule}'s controllers`);
    return;
  }
  let from = posix.relative(dirname(moduleFile), file.replace(/\.ts$/, ''));
  if (!from.startsWith('.')) from = `./${from}`;
  const line = `import { ${controller} } from '${from}';\n`;
  const listed = list === '@Module({' ? `@Module({ controllers: [${controller}],` : `controllers: [${controller}, `;
  tree.write(moduleFile, `${source.slice(0, at)}${line}${source.slice(at)}`.replace(list, listed));
}

/** The file under `root` that declares `export class <name>`, if any. */
function findClass(tree: Tree, root: string, name: string): string | undefined {
  let found: string | undefined;
  visitNotIgnoredFiles(tree, root, (path) => {
    if (!found && path.endsWith('.ts') && (tree.read(path, 'utf-8') as string).includes(`export class ${name} `)) {
      found = path;
    }
  });
  return found;
}

/** Where the last import statement ends (after its `;\n`), or -1. */
export function importsEnd(source: string): number {
  const lastImport = source.lastIndexOf('\nimport ');
  const end = lastImport < 0 ? -1 : source.indexOf(';\n', lastImport);
  return end < 0 ? -1 : end + 2;
}

import { join } from 'node:path';
import {
  formatFiles,
  type GeneratorCallback,
  generateFiles,
  logger,
  names,
  OverwriteStrategy,
  type Tree,
} from '@nx/devkit';
import { importsEnd, writeHttpRoute } from './http-route';
import { type ServiceFeatureOptions } from './schema';

/** Everything the templates and the edits need, derived once from the options. */
export interface FeatureNames {
  service: string;
  feature: string;
  verb: string;
  thing: string;
  serviceRoot: string;
  contractsFolder: string;
  /** Where the descriptor group is declared. */
  rpcFile: string;
  /** What the service code imports the contract from. */
  contractImport: string;
  diFile: string;
  dataSourceToken: string;
  rpcGroup: string;
  operation: string;
  featureClass: string;
  thingClass: string;
  thingWords: string;
  thingSentence: string;
  useCaseClass: string;
  useCaseProperty: string;
  requestClass: string;
  replyType: string;
  subject: string;
  schema: string;
  table: string;
  notFoundCode: string;
}

/**
 * A feature folder (`libs/<service>/service`, `libs/<service>/contract`, decision 0019). The old
 * layout (`libs/service-<service>`, its contract in `libs/contracts`) is refused: move it first.
 */
function layoutOf(
  tree: Tree,
  service: string,
): Pick<FeatureNames, 'serviceRoot' | 'contractsFolder' | 'rpcFile' | 'contractImport'> {
  if (tree.exists(`libs/service-${service}`)) {
    throw new Error(
      `libs/service-${service} is the old layout: move it into libs/${service}/{contract,http,service} first (decision 0019)`,
    );
  }
  return {
    serviceRoot: `libs/${service}/service/src`,
    contractsFolder: `libs/${service}/contract/src`,
    rpcFile: `libs/${service}/contract/src/${service}.rpc.ts`,
    contractImport: `@hub/${service}-contract`,
  };
}

export function featureNames(tree: Tree, o: ServiceFeatureOptions): FeatureNames {
  const layout = layoutOf(tree, o.service);
  const { serviceRoot } = layout;
  if (tree.exists(`${serviceRoot}/${o.service}.tokens.ts`)) {
    throw new Error(
      `${serviceRoot}/${o.service}.tokens.ts: DI tokens live in ${o.service}.di.ts (decision 0002); rename it first`,
    );
  }
  const featureDir = `${serviceRoot}/${o.feature}`;
  const handler = tree.exists(featureDir)
    ? tree.children(featureDir).find((f) => f.endsWith('.handler.ts'))
    : undefined;
  if (handler) {
    throw new Error(
      `${featureDir}/${handler} is the old shape: fold it into its use cases first (@RpcHandler on each execute, decision 0002)`,
    );
  }
  const diFile = `${o.service}.di`;
  if (!tree.exists(`${serviceRoot}/${o.service}.module.ts`) || !tree.exists(`${serviceRoot}/${diFile}.ts`)) {
    throw new Error(`No service ${o.service}: expected ${serviceRoot}/${o.service}.module.ts and ${o.service}.di.ts`);
  }
  const constant = names(o.service).constantName;
  const dataSourceToken = `${constant}_DS`;
  if (!tree.read(`${serviceRoot}/${diFile}.ts`, 'utf-8')?.includes(`export const ${dataSourceToken} `)) {
    throw new Error(`${serviceRoot}/${diFile}.ts does not export ${dataSourceToken}`);
  }
  const operation = `${names(o.verb).className}${names(o.thing).className}`;
  const thingClass = names(o.thing).className;
  const thingWords = o.thing.replace(/-/g, ' ');
  return {
    ...o,
    ...layout,
    diFile,
    dataSourceToken,
    rpcGroup: o.rpcGroup ?? `${names(o.service).className}Rpc`,
    operation,
    featureClass: names(o.feature).className,
    thingClass,
    thingWords,
    thingSentence: thingWords.charAt(0).toUpperCase() + thingWords.slice(1),
    useCaseClass: `${operation}UseCase`,
    useCaseProperty: names(operation).propertyName,
    requestClass: `${operation}Rpc`,
    replyType: `${thingClass}View`,
    subject: `${o.service}.${o.thing}.${o.verb}`,
    schema: o.service.replace(/-/g, '_'),
    table: o.feature.replace(/-/g, '_'),
    notFoundCode: `${names(o.thing).constantName}_NOT_FOUND`,
  };
}

/**
 * `nx g @hub/tools:service-feature --service=credentials --feature=api-keys --verb=get --thing=api-key`:
 * a feature in its three tiers (decision 0019). The service's feature folder in the one shape of
 * decision 0002 (the use case serving its RPC with `@RpcHandler` on `execute`, its store, its errors
 * and a unit spec; no handler file), listed in the service module; the RPC's request and reply in
 * the feature's contract (`libs/<service>/contract`) with its descriptor; and the gateway's route
 * (`libs/<service>/http`, `http-route.ts`). Existing files are never overwritten: what it could not
 * do is printed.
 */
export async function serviceFeatureGenerator(tree: Tree, options: ServiceFeatureOptions): Promise<GeneratorCallback> {
  const n = featureNames(tree, options);
  const todo: string[] = [];
  const featureDir = `${n.serviceRoot}/${n.feature}`;
  const useCaseFile = `${featureDir}/${n.verb}-${n.thing}.use-case.ts`;
  const contractFile = `${n.contractsFolder}/${n.verb}-${n.thing}.rpc.ts`;
  for (const file of [useCaseFile, contractFile]) {
    if (tree.exists(file)) throw new Error(`${file} exists: this operation is there already`);
  }
  const kept = [`${n.feature}.store.ts`, `${n.feature}.errors.ts`].filter((f) => tree.exists(`${featureDir}/${f}`));
  const substitutions = { ...n, tmpl: '' };
  generateFiles(tree, join(__dirname, 'files', 'service'), featureDir, substitutions, {
    overwriteStrategy: OverwriteStrategy.KeepExisting,
  });
  for (const f of kept) todo.push(`${featureDir}/${f} exists and was kept: add what the new use case needs to it`);
  generateFiles(tree, join(__dirname, 'files', 'contract'), n.contractsFolder, substitutions);
  exportContract(tree, n);
  addDescriptor(tree, n, todo);
  const areas = register(tree, n, todo);
  writeHttpRoute(tree, n, areas, todo);
  await formatFiles(tree);
  return () => {
    logger.info(`Next, for ${n.rpcGroup}.${n.operation} (${n.subject}):`);
    for (const line of [
      ...todo,
      `a migration creating ${n.schema}.${n.table} in ${n.serviceRoot}/migrations (listed in migrations/index.ts)`,
      `libs/bus-access/src/access.ts: list ${n.rpcGroup}.${n.operation} in the gateway's calls (its new route calls it; a service that handles rpcs(${n.rpcGroup}) serves it already)`,
      'npm run bus:generate (the contracts tests fail while the bus catalogue is stale)',
    ]) {
      logger.info(`  - ${line}`);
    }
  };
}

function exportContract(tree: Tree, n: FeatureNames): void {
  const index = `${n.contractsFolder}/index.ts`;
  const line = `export * from './${n.verb}-${n.thing}.rpc';\n`;
  tree.write(index, `${tree.exists(index) ? tree.read(index, 'utf-8') : ''}${line}`);
}

function addDescriptor(tree: Tree, n: FeatureNames, todo: string[]): void {
  const file = n.rpcFile;
  const source = tree.exists(file) ? (tree.read(file, 'utf-8') as string) : '';
  const start = source.indexOf(`export const ${n.rpcGroup} = {`);
  const end = start < 0 ? -1 : source.indexOf('\n}', start); // the object's closing line: `};` or `} as const;`
  const descriptor = `  ${n.operation}: rpc<${n.requestClass}, ${n.replyType}>('${n.subject}', ${n.requestClass}),`;
  // The new request and reply are imported first, from the file written beside the descriptors.
  const anchor = source.slice(0, source.indexOf('import '));
  if (end < 0) {
    todo.push(`${file}: add ${descriptor.trim()} to ${n.rpcGroup}`);
    return;
  }
  const importLine = `import { ${n.requestClass}, type ${n.replyType} } from './${n.verb}-${n.thing}.rpc';\n`;
  const withDescriptor = `${source.slice(0, end)}\n${descriptor}${source.slice(end)}`;
  tree.write(file, `${anchor}${importLine}${withDescriptor.slice(anchor.length)}`);
}

/**
 * Lists the use case in `providers` (the RPC server finds its `@RpcHandler` there): of the
 * feature's own area module when the service is split by areas (`const AREAS = [` in
 * `<service>.module.ts`, decision 0002: a new area module is written and listed there), else of
 * `<service>.module.ts`. Answers whether the service is split by areas.
 */
function register(tree: Tree, n: FeatureNames, todo: string[]): boolean {
  const serviceModule = `${n.serviceRoot}/${n.service}.module.ts`;
  const areas = (tree.read(serviceModule, 'utf-8') as string).includes('const AREAS = [');
  if (!areas) {
    listIn(tree, serviceModule, `./${n.feature}/`, n, todo);
    return false;
  }
  const areaModule = `${n.serviceRoot}/${n.feature}/${n.feature}.module.ts`;
  if (tree.exists(areaModule)) {
    listIn(tree, areaModule, './', n, todo);
    return true;
  }
  generateFiles(tree, join(__dirname, 'files', 'area'), `${n.serviceRoot}/${n.feature}`, { ...n, tmpl: '' });
  let source = tree.read(serviceModule, 'utf-8') as string;
  const at = importsEnd(source);
  if (at < 0) {
    todo.push(`${serviceModule}: list ${n.featureClass}Module in AREAS`);
    return true;
  }
  const line = `import { ${n.featureClass}Module } from './${n.feature}/${n.feature}.module';\n`;
  source = `${source.slice(0, at)}${line}${source.slice(at)}`.replace(
    'const AREAS = [',
    `const AREAS = [${n.featureClass}Module, `,
  );
  tree.write(serviceModule, source);
  return true;
}

function listIn(tree: Tree, file: string, from: string, n: FeatureNames, todo: string[]): void {
  let source = tree.read(file, 'utf-8') as string;
  const at = importsEnd(source);
  if (at < 0 || !source.includes('providers: [')) {
    todo.push(`${file}: provide ${n.useCaseClass}`);
    return;
  }
  const useCaseImport = `import { ${n.useCaseClass} } from '${from}${n.verb}-${n.thing}.use-case';\n`;
  source = `${source.slice(0, at)}${useCaseImport}${source.slice(at)}`;
  source = source.replace('providers: [', `providers: [${n.useCaseClass}, `);
  tree.write(file, source);
}

export default serviceFeatureGenerator;

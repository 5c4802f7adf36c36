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
 * A feature folder (`libs/<service>/service`, `libs/<service>/contract`, decision 0019) or a service
 * lib not yet moved (`libs/service-<service>`, its contract in `libs/contracts`).
 */
function layoutOf(
  tree: Tree,
  service: string,
): Pick<FeatureNames, 'serviceRoot' | 'contractsFolder' | 'rpcFile' | 'contractImport'> {
  if (tree.exists(`libs/${service}/service/src/${service}.module.ts`)) {
    return {
      serviceRoot: `libs/${service}/service/src`,
      contractsFolder: `libs/${service}/contract/src`,
      rpcFile: `libs/${service}/contract/src/${service}.rpc.ts`,
      contractImport: `@hub/${service}-contract`,
    };
  }
  return {
    serviceRoot: `libs/service-${service}/src`,
    contractsFolder: `libs/contracts/src/${service}`,
    rpcFile: `libs/contracts/src/${service}/${service}.rpc.ts`,
    contractImport: '@hub/contracts',
  };
}

export function featureNames(tree: Tree, o: ServiceFeatureOptions): FeatureNames {
  const layout = layoutOf(tree, o.service);
  const { serviceRoot } = layout;
  const diFile = [`${o.service}.di`, `${o.service}.tokens`].find((f) => tree.exists(`${serviceRoot}/${f}.ts`));
  if (!tree.exists(`${serviceRoot}/${o.service}.module.ts`) || !diFile) {
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
 * a feature folder in the shape of decision 0002 (handler → use case → store → errors, and a unit
 * spec), the RPC's request and reply in the feature's contract (`libs/<service>/contract`, or
 * libs/contracts for a service not yet in a feature folder) with its descriptor, and the handler
 * and use case listed in the service module. Existing files are never overwritten: what it could not do
 * is printed.
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
  const handlerExisted = tree.exists(`${featureDir}/${n.feature}.handler.ts`);
  const kept = [`${n.feature}.handler.ts`, `${n.feature}.store.ts`, `${n.feature}.errors.ts`].filter((f) =>
    tree.exists(`${featureDir}/${f}`),
  );
  const substitutions = { ...n, tmpl: '' };
  generateFiles(tree, join(__dirname, 'files', 'service'), featureDir, substitutions, {
    overwriteStrategy: OverwriteStrategy.KeepExisting,
  });
  for (const f of kept) todo.push(`${featureDir}/${f} exists and was kept: add what the new use case needs to it`);
  if (handlerExisted) {
    todo.push(
      `${featureDir}/${n.feature}.handler.ts: add @RpcHandler(${n.rpcGroup}.${n.operation}) calling ${n.useCaseClass}`,
    );
  }
  generateFiles(tree, join(__dirname, 'files', 'contract'), n.contractsFolder, substitutions);
  exportContract(tree, n, todo);
  addDescriptor(tree, n, todo);
  registerInModule(tree, n, handlerExisted, todo);
  await formatFiles(tree);
  return () => {
    logger.info(`Next, for ${n.rpcGroup}.${n.operation} (${n.subject}):`);
    for (const line of [
      ...todo,
      `a migration creating ${n.schema}.${n.table} in ${n.serviceRoot}/migrations (listed in migrations/index.ts)`,
      `libs/bus-access/src/access.ts: the callers of ${n.rpcGroup}.${n.operation} (a service that handles rpcs(${n.rpcGroup}) has it already)`,
      'npm run bus:generate (the contracts tests fail while the bus catalogue is stale)',
    ]) {
      logger.info(`  - ${line}`);
    }
  };
}

function exportContract(tree: Tree, n: FeatureNames, todo: string[]): void {
  const index = `${n.contractsFolder}/index.ts`;
  const line = `export * from './${n.verb}-${n.thing}.rpc';\n`;
  if (!tree.exists(index)) {
    tree.write(index, line);
    if (n.contractImport === '@hub/contracts') todo.push(`export ${index} from libs/contracts/src/index.ts`);
    return;
  }
  tree.write(index, `${tree.read(index, 'utf-8')}${line}`);
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

/** Lists the handler in `controllers` and the use case in `providers` of `<service>.module.ts`. */
function registerInModule(tree: Tree, n: FeatureNames, handlerExisted: boolean, todo: string[]): void {
  const file = `${n.serviceRoot}/${n.service}.module.ts`;
  let source = tree.read(file, 'utf-8') as string;
  const useCaseImport = `import { ${n.useCaseClass} } from './${n.feature}/${n.verb}-${n.thing}.use-case';\n`;
  const handlerImport = `import { ${n.featureClass}Handler } from './${n.feature}/${n.feature}.handler';\n`;
  const lastImport = source.lastIndexOf('\nimport ');
  const importEnd = lastImport < 0 ? -1 : source.indexOf(';\n', lastImport);
  if (importEnd < 0 || !source.includes('providers: [') || (!handlerExisted && !source.includes('controllers: ['))) {
    todo.push(
      `${file}: provide ${n.useCaseClass}${handlerExisted ? '' : ` and list ${n.featureClass}Handler in controllers`}`,
    );
    return;
  }
  const imports = `${handlerExisted ? '' : handlerImport}${useCaseImport}`;
  source = `${source.slice(0, importEnd + 2)}${imports}${source.slice(importEnd + 2)}`;
  if (!handlerExisted) source = source.replace('controllers: [', `controllers: [${n.featureClass}Handler, `);
  source = source.replace('providers: [', `providers: [${n.useCaseClass}, `);
  tree.write(file, source);
}

export default serviceFeatureGenerator;

/**
 * Writes what is generated from the event descriptors (libs/contracts and every feature's contract,
 * loaded by @hub/bus-access):
 *   npm run bus:generate            the bus client's catalogue (payload types, schemas)
 *   npm run bus:generate -- --release   also the released contract docs/asyncapi/released.json,
 *                                   the compatibility baseline (decision 0701)
 *   and the NATS users and permissions of every app (decision 0013) for docker/ and k8s/;
 *   npm run bus:permissions -- --prefix <HUB_BUS_PREFIX>   prints them for another prefix
 * The bus-access tests fail while a committed file differs from what the descriptors give.
 */
import 'reflect-metadata';
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import {
  NATS_AUTHORIZATION_FILES,
  renderNatsAuthorization,
  buildAsyncApiDocument,
  renderCatalogue,
} from '@hub/bus-access';

const root = resolve(__dirname, '../..');
const prefixAt = process.argv.indexOf('--prefix');
if (prefixAt > 0) {
  process.stdout.write(renderNatsAuthorization({ prefix: process.argv[prefixAt + 1] ?? '' }));
  process.exit(0);
}
for (const file of NATS_AUTHORIZATION_FILES) {
  writeFileSync(resolve(root, file), renderNatsAuthorization());
  console.log(`wrote ${file}`);
}
const doc = buildAsyncApiDocument();
writeFileSync(resolve(root, 'libs/bus-client/src/generated/catalogue.ts'), renderCatalogue(doc));
console.log('wrote libs/bus-client/src/generated/catalogue.ts');
if (process.argv.includes('--release')) {
  writeFileSync(resolve(root, 'docs/asyncapi/released.json'), `${JSON.stringify(doc, null, 2)}\n`);
  console.log(`wrote docs/asyncapi/released.json (contract ${doc.info.version})`);
}

/**
 * Writes what is generated from the event descriptors in libs/contracts:
 *   npm run bus:generate            the bus client's catalogue (payload types, schemas)
 *   npm run bus:generate -- --release   also the released contract docs/asyncapi/released.json,
 *                                   the compatibility baseline (decision 0701)
 * The contracts tests fail while a committed file differs from what the descriptors give.
 */
import 'reflect-metadata';
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { buildAsyncApiDocument, renderCatalogue } from '@hub/contracts';

const root = resolve(__dirname, '../..');
const doc = buildAsyncApiDocument();
writeFileSync(resolve(root, 'libs/bus-client/src/generated/catalogue.ts'), renderCatalogue(doc));
console.log('wrote libs/bus-client/src/generated/catalogue.ts');
if (process.argv.includes('--release')) {
  writeFileSync(resolve(root, 'docs/asyncapi/released.json'), `${JSON.stringify(doc, null, 2)}\n`);
  console.log(`wrote docs/asyncapi/released.json (contract ${doc.info.version})`);
}

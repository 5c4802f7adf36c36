import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * The Compose Specification's JSON schema as the `dclint` package ships it
 * (node_modules/dclint/schemas/compose.schema.json, MIT; the compose-spec project's
 * schema/compose-spec.json, draft-07). Pinned through package.json, so it changes only with
 * a deliberate upgrade.
 */
export const COMPOSE_SCHEMA_PATH = join(dirname(require.resolve('dclint/package.json')), 'schemas/compose.schema.json');

export function composeValidator(): ValidateFunction {
  const schema = JSON.parse(readFileSync(COMPOSE_SCHEMA_PATH, 'utf8')) as Record<string, unknown>;
  // Ajv knows draft-07 by its http:// id; the file names it with https://.
  delete schema['$schema'];
  const ajv = new Ajv({ allErrors: true, strict: false });
  addFormats(ajv);
  return ajv.compile(schema);
}

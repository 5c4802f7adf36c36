import { type AsyncApiDocument } from './asyncapi-document';
import { type JsonSchema } from '@hub/contracts';

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

function key(name: string): string {
  return IDENTIFIER.test(name) ? name : JSON.stringify(name);
}

function literalUnion(values: unknown[]): string {
  const strings = values.some((v) => typeof v === 'string');
  // Enums are open (decision 0701): known values for autocompletion, any string accepted.
  return [...values.map((v) => JSON.stringify(v)), ...(strings ? ['(string & {})'] : [])].join(' | ');
}

/** The TypeScript type of a JSON Schema as classSchema writes them (open objects, inlined). */
export function schemaType(schema: JsonSchema, indent = ''): string {
  if (Array.isArray(schema['allOf'])) return (schema['allOf'] as JsonSchema[]).map((s) => `(${schemaType(s, indent)})`).join(' & ');
  if (Array.isArray(schema['anyOf'])) return (schema['anyOf'] as JsonSchema[]).map((s) => `(${schemaType(s, indent)})`).join(' | ');
  if (Array.isArray(schema['enum'])) return literalUnion(schema['enum'] as unknown[]);
  const type = schema['type'];
  if (Array.isArray(type)) return (type as string[]).map((t) => schemaType({ ...schema, type: t }, indent)).join(' | ');
  switch (type) {
    case 'string': return 'string';
    case 'integer': case 'number': return 'number';
    case 'boolean': return 'boolean';
    case 'null': return 'null';
    case 'array': return `Array<${schema['items'] ? schemaType(schema['items'] as JsonSchema, indent) : 'unknown'}>`;
    case 'object': {
      const props = schema['properties'] as Record<string, JsonSchema> | undefined;
      if (!props || Object.keys(props).length === 0) return 'Record<string, unknown>';
      const required = new Set((schema['required'] as string[] | undefined) ?? []);
      const inner = `${indent}  `;
      const lines = Object.entries(props).map(([name, s]) => `${inner}${key(name)}${required.has(name) ? '' : '?'}: ${schemaType(s, inner)};`);
      return `{\n${lines.join('\n')}\n${inner}[member: string]: unknown;\n${indent}}`;
    }
    default: return 'unknown';
  }
}

function pascal(name: string): string {
  return name.charAt(0).toUpperCase() + name.slice(1);
}

/**
 * The bus client's generated catalogue: one payload type and one event definition (subject
 * filter, stream, JSON Schema) per channel of the AsyncAPI document.
 */
export function renderCatalogue(doc: AsyncApiDocument): string {
  const out = [
    '// Generated from the AsyncAPI document of libs/contracts by `npm run bus:generate`. Do not edit.',
    "import { type EventDefinition } from '../event-definition';",
    '',
    `export const BUS_CONTRACT_VERSION = ${JSON.stringify(doc.info.version)};`,
    '',
  ];
  const entries: string[] = [];
  for (const [id, channel] of Object.entries(doc.channels)) {
    const message = Object.values(channel.messages)[0];
    const typeName = `${pascal(id)}Payload`;
    out.push(`/** ${channel.summary.replace(/\*\//g, '*\\/')} (\`${channel.address}\`) */`, `export type ${typeName} = ${schemaType(message.payload)};`, '');
    const definition = {
      name: id, address: channel.address, filter: channel['x-hub-filter'], stream: channel['x-hub-stream'],
      family: channel.address.includes('{'), schema: message.payload,
    };
    entries.push(`  ${key(id)}: ${JSON.stringify(definition)} as EventDefinition<${typeName}>,`);
  }
  out.push('/** Every event of the bus contract, by name: pass one to `HubBus.consume`. */', 'export const HubEvents = {', ...entries, '} as const;', '');
  return out.join('\n');
}

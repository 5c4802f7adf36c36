import { type OpenAPIObject } from '@nestjs/swagger';

interface Operation {
  summary?: string;
  description?: string;
  tags?: string[];
  security?: unknown[];
  parameters?: { name: string; in: string; required?: boolean; schema?: { type?: unknown; pattern?: string } }[];
  requestBody?: { content?: Record<string, { schema?: { $ref?: string } }> };
  responses?: Record<
    string,
    {
      description?: string;
      content?: Record<string, { schema?: { $ref?: string; type?: unknown; items?: { $ref?: string } } }>;
    }
  >;
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

function schemaName(ref: string | undefined): string {
  return ref ? (ref.split('/').pop() ?? ref) : '';
}

function cell(text: unknown): string {
  return String(text ?? '')
    .replace(/\|/g, '\\|')
    .replace(/\n/g, ' ');
}

/** A readable Markdown form of the OpenAPI document, grouped by tag. */
export function renderOpenApiMarkdown(doc: OpenAPIObject): string {
  const out: string[] = [
    `# ${doc.info.title} ${doc.info.version}`,
    '',
    doc.info.description ?? '',
    '',
    'Authentication: `Authorization: Bearer <token>` unless an operation says none.',
    '',
  ];
  const byTag = new Map<string, string[]>();
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      const op = (item as Record<string, Operation | undefined>)[method];
      if (!op) continue;
      const lines = [`### ${method.toUpperCase()} ${path}`, ''];
      if (op.summary) lines.push(op.summary, '');
      if (op.description) lines.push(op.description, '');
      if (op.security && op.security.length === 0) lines.push('No authentication.', '');
      if (op.parameters?.length) {
        lines.push('| parameter | in | required | type |', '|---|---|---|---|');
        for (const p of op.parameters)
          lines.push(`| ${cell(p.name)} | ${p.in} | ${p.required ? 'yes' : 'no'} | ${cell(p.schema?.type)} |`);
        lines.push('');
      }
      const body = op.requestBody?.content?.['application/json']?.schema?.$ref;
      if (body) lines.push(`Body: \`${schemaName(body)}\` (see Schemas).`, '');
      for (const [status, r] of Object.entries(op.responses ?? {})) {
        const schema = r.content?.['application/json']?.schema;
        const name = schema?.$ref
          ? schemaName(schema.$ref)
          : schema?.items?.$ref
            ? `${schemaName(schema.items.$ref)}[]`
            : '';
        lines.push(`- ${status}: ${cell(r.description)}${name ? ` (\`${name}\`)` : ''}`);
      }
      lines.push('');
      const tag = op.tags?.[0] ?? 'other';
      byTag.set(tag, [...(byTag.get(tag) ?? []), ...lines]);
    }
  }
  for (const [tag, lines] of byTag) out.push(`## ${tag}`, '', ...lines);
  const schemas = doc.components?.schemas ?? {};
  if (Object.keys(schemas).length) {
    out.push('## Schemas', '');
    for (const [name, schema] of Object.entries(schemas)) {
      out.push(`### ${name}`, '', '```json', JSON.stringify(schema, null, 2), '```', '');
    }
  }
  return out.join('\n');
}

import { type INestApplication } from '@nestjs/common';
import { DocumentBuilder, type OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { type FastifyInstance } from 'fastify';
import { closedSchemaNames, EmptyAnswer, ErrorBody } from '@hub/contracts';
import { closeSchemas, withEdgeResponses } from './edge-responses';
import { renderOpenApiMarkdown } from './openapi-markdown';

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/**
 * @nestjs/swagger labels the document 3.1.0 but still writes 3.0's `nullable`; rewrite it the
 * 3.1 way (`type: [T, 'null']`) so the document is what its label says (toolchain trap 9).
 */
export function toOpenApi31<T>(node: T): T {
  const walk = (n: Json): Json => {
    if (Array.isArray(n)) return n.map(walk);
    if (n === null || typeof n !== 'object') return n;
    const out: { [k: string]: Json } = {};
    for (const [k, v] of Object.entries(n)) if (k !== 'nullable') out[k] = walk(v);
    if (n['nullable'] === true) {
      const t = out['type'];
      if (typeof t === 'string') out['type'] = [t, 'null'];
      else if (Array.isArray(t)) out['type'] = [...t.filter((x) => x !== 'null'), 'null'];
      else return { anyOf: [out, { type: 'null' }] };
    }
    return out;
  };
  return walk(node as unknown as Json) as unknown as T;
}

export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Hub services')
    .setDescription('Notifications, webhooks, access tokens, organizations and jobs of a self-hosted model hub.')
    .setVersion('0.0.1')
    .setOpenAPIVersion('3.1.0')
    .addBearerAuth()
    .addSecurityRequirements('bearer')
    .build();
  const doc = SwaggerModule.createDocument(app, config, { extraModels: [ErrorBody, EmptyAnswer] });
  return toOpenApi31(closeSchemas(withEdgeResponses(doc), closedSchemaNames()));
}

/** /.well-known/openapi.json, /.well-known/openapi.md (the spec names it) and Swagger UI at /docs. */
export function serveOpenApi(app: INestApplication): void {
  const doc = buildOpenApiDocument(app);
  const markdown = renderOpenApiMarkdown(doc);
  SwaggerModule.setup('docs', app, doc, {
    jsonDocumentUrl: '.well-known/openapi.json',
    yamlDocumentUrl: 'docs-yaml',
    raw: ['json'],
  });
  const fastify = app.getHttpAdapter().getInstance() as FastifyInstance;
  fastify.get('/.well-known/openapi.md', (_req, reply) => {
    void reply.header('Content-Type', 'text/markdown; charset=utf-8').send(markdown);
  });
}

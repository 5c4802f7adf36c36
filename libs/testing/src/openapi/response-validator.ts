// Ajv's documented entry point for JSON Schema 2020-12 (OpenAPI 3.1), not an internal file.
// eslint-disable-next-line no-restricted-imports
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

/** What a test saw: enough to find the operation and check the answer against it. */
export interface ObservedResponse {
  method: string;
  /** The request path, with or without a query string. */
  path: string;
  status: number;
  contentType: string | null;
  /** The parsed JSON body (undefined when there was none). */
  body: unknown;
}

interface MediaType {
  schema?: unknown;
}
interface ResponseObject {
  content?: Record<string, MediaType>;
}
interface OpenApiDocument {
  paths: Record<string, Record<string, { responses?: Record<string, ResponseObject> } | undefined>>;
  components?: { schemas?: Record<string, unknown> };
}

/**
 * Served beside the API, not part of it: the document itself, the bus's AsyncAPI document (decision
 * 0700), Swagger UI and Prometheus text.
 * Everything else a suite receives must be an operation of the document.
 */
const OUTSIDE_THE_API = [
  /^\/\.well-known\/(openapi\.(json|md)|asyncapi\.json)$/,
  /^\/docs(-yaml|-json)?(\/.*)?$/,
  /^\/metrics$/,
];

const DOC_ID = 'hub-openapi';
const JSON_TYPES = ['application/json', 'application/scim+json'] as const;

interface Template {
  path: string;
  segments: string[];
  literals: number;
}

function segmentsOf(path: string): string[] {
  return path.split('/').filter((s, i) => i > 0 || s !== '');
}

/** `#/components/…` inside an operation means the document's components. */
function pointAtDocument(schema: unknown): unknown {
  return JSON.parse(JSON.stringify(schema).replace(/"#\/components\//g, `"${DOC_ID}#/components/`));
}

/**
 * Checks answers against our own OpenAPI document (issue 6): the operation for path + method must
 * exist, declare the status, and — for a JSON answer — its schema must accept the body. A path no
 * operation matches may only be the router's 404 with the error body.
 */
export class OpenApiResponseValidator {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true });
  private readonly templates: Template[];
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor(private readonly doc: OpenApiDocument) {
    addFormats(this.ajv);
    // OpenAPI 3.1 schemas are JSON Schema 2020-12; `example` and friends are annotations.
    this.ajv.addSchema({ ...doc, $id: DOC_ID } as object);
    this.templates = Object.keys(doc.paths)
      .map((path) => {
        const segments = segmentsOf(path);
        return { path, segments, literals: segments.filter((s) => !/^\{.+\}$/.test(s)).length };
      })
      .sort((a, b) => b.literals - a.literals);
  }

  /** Compiles every response schema: throws if the document holds one ajv cannot read. */
  compileAll(): number {
    let n = 0;
    for (const [path, item] of Object.entries(this.doc.paths)) {
      for (const [method, op] of Object.entries(item)) {
        for (const [status, r] of Object.entries(op?.responses ?? {})) {
          for (const type of JSON_TYPES) {
            if (r.content?.[type]?.schema) {
              this.validatorFor(`${method} ${path} ${status} ${type}`, r.content[type].schema);
              n++;
            }
          }
        }
      }
    }
    return n;
  }

  /** The template of the operation's path, or null when no path of the document matches. */
  matchPath(path: string): string | null {
    const segments = segmentsOf(path.split('?')[0] ?? path);
    const hit = this.templates.find(
      (t) =>
        t.segments.length === segments.length &&
        t.segments.every((s, i) => (/^\{.+\}$/.test(s) ? segments[i] !== '' : s === segments[i])),
    );
    return hit?.path ?? null;
  }

  /** Every way the answer breaks the document; empty when it conforms. */
  problems(r: ObservedResponse): string[] {
    const path = r.path.split('?')[0] ?? r.path;
    if (OUTSIDE_THE_API.some((re) => re.test(path))) return [];
    const method = r.method.toLowerCase();
    const template = this.matchPath(path);
    const op = template ? this.doc.paths[template]?.[method] : undefined;
    if (!template || !op) {
      if (r.status === 404) {
        const scim = /\/scim\/v2(\/|$)/.test(path);
        return this.bodyProblems(
          `router 404${scim ? ' scim' : ''}`,
          { $ref: `#/components/schemas/${scim ? 'ScimErrorBody' : 'ErrorBody'}` },
          r,
        );
      }
      return [`${r.method} ${path} is not an operation of the OpenAPI document (answered ${r.status})`];
    }
    const declared = op.responses?.[String(r.status)] ?? op.responses?.['default'];
    if (!declared) {
      return [
        `${r.method} ${template} answered ${r.status}, which the document does not declare (declared: ${Object.keys(op.responses ?? {}).join(', ')})`,
      ];
    }
    // application/json, or application/scim+json for SCIM operations (RFC 7644 3.1).
    const type = /^application\/(scim\+)?json\b/i.exec(r.contentType ?? '')?.[0]?.toLowerCase();
    const isJson = type !== undefined;
    const media = type ? declared.content?.[type] : undefined;
    if (r.body === undefined && !isJson) return [];
    if (!isJson)
      return [`${r.method} ${template} ${r.status}: content type ${r.contentType ?? 'none'} is not declared`];
    if (!media?.schema)
      return [`${r.method} ${template} ${r.status}: a JSON body, but the document declares no schema for it`];
    return this.bodyProblems(`${method} ${template} ${r.status} ${type}`, media.schema, r);
  }

  /** Throws with every problem (and the body) when the answer breaks the document. */
  assert(r: ObservedResponse): void {
    const problems = this.problems(r);
    if (problems.length > 0) {
      throw new Error(
        `Response breaks the OpenAPI document:\n  ${problems.join('\n  ')}\nbody: ${JSON.stringify(r.body)?.slice(0, 2000)}`,
      );
    }
  }

  /**
   * Throws when `value` breaks the document's component schema `name`: for what no JSON answer
   * carries, such as the data of a server-sent event.
   */
  assertComponent(name: string, value: unknown): void {
    const validate = this.validatorFor(`component ${name}`, { $ref: `#/components/schemas/${name}` });
    if (validate(value)) return;
    const problems = (validate.errors ?? []).map((e) => `${name}${e.instancePath} ${e.message ?? 'is invalid'}`);
    throw new Error(`Breaks the OpenAPI document:\n  ${problems.join('\n  ')}\nvalue: ${JSON.stringify(value)}`);
  }

  private bodyProblems(key: string, schema: unknown, r: ObservedResponse): string[] {
    const validate = this.validatorFor(key, schema);
    if (validate(r.body)) return [];
    return (validate.errors ?? []).map(
      (e) =>
        `${r.method} ${r.path} ${r.status}: body${e.instancePath} ${e.message ?? 'is invalid'}${e.params && 'additionalProperty' in e.params ? ` (${String(e.params['additionalProperty'])})` : ''}`,
    );
  }

  private validatorFor(key: string, schema: unknown): ValidateFunction {
    let v = this.compiled.get(key);
    if (!v) {
      v = this.ajv.compile(pointAtDocument(schema) as object);
      this.compiled.set(key, v);
    }
    return v;
  }
}

import { OpenApiResponseValidator, type ObservedResponse } from './response-validator';

/** One validator per running hub (base URL or in-process app): the document is loaded once. */
const byTarget = new Map<unknown, Promise<OpenApiResponseValidator>>();

function load(key: unknown, fetchDoc: () => Promise<unknown>): Promise<OpenApiResponseValidator> {
  let v = byTarget.get(key);
  if (!v) {
    v = fetchDoc().then(
      (doc) => new OpenApiResponseValidator(doc as ConstructorParameters<typeof OpenApiResponseValidator>[0]),
    );
    // A failed load is not cached: the next answer tries again (the hub may still be starting).
    v.catch(() => byTarget.delete(key));
    byTarget.set(key, v);
  }
  return v;
}

/** The validator of the hub at baseUrl, from its `/.well-known/openapi.json`. */
export function openApiValidatorFor(baseUrl: string): Promise<OpenApiResponseValidator> {
  return load(baseUrl, async () => {
    const res = await fetch(`${baseUrl}/.well-known/openapi.json`);
    if (res.status !== 200) throw new Error(`${baseUrl}/.well-known/openapi.json answered ${res.status}`);
    return res.json();
  });
}

/** What `fastify.inject` needs here, without making the testing lib depend on fastify. */
export interface Injectable {
  inject(opts: { method: 'GET'; url: string }): PromiseLike<{ statusCode: number; body: string }>;
}

/** The validator of an in-process app, through `inject`. */
export function openApiValidatorForApp(app: Injectable): Promise<OpenApiResponseValidator> {
  return load(app, async () => {
    const res = await app.inject({ method: 'GET', url: '/.well-known/openapi.json' });
    if (res.statusCode !== 200) throw new Error(`/.well-known/openapi.json answered ${res.statusCode}`);
    return JSON.parse(res.body) as unknown;
  });
}

/** An injected answer checked against the app's document; throws when it breaks it. */
export async function assertInjectedResponse(
  app: Injectable,
  request: { method: string; url: string },
  res: { statusCode: number; headers: Record<string, unknown>; body: string },
): Promise<void> {
  const contentType = typeof res.headers['content-type'] === 'string' ? res.headers['content-type'] : null;
  let body: unknown = undefined;
  if (res.body !== '') {
    try {
      body = JSON.parse(res.body) as unknown;
    } catch {
      body = res.body;
    }
  }
  const observed: ObservedResponse = {
    method: request.method,
    path: request.url,
    status: res.statusCode,
    contentType,
    body,
  };
  (await openApiValidatorForApp(app)).assert(observed);
}

/**
 * A `fetch` that checks every answer from baseUrl against the hub's document, for the public
 * clients' own calls (`whoAmI({ …, fetch: openApiCheckedFetch(baseUrl) })`).
 */
export function openApiCheckedFetch(baseUrl: string): typeof fetch {
  return async (input, init) => {
    const res = await fetch(input, init);
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
    if (!url.href.startsWith(baseUrl)) return res;
    const text = await res.clone().text();
    let body: unknown = undefined;
    try {
      body = text ? (JSON.parse(text) as unknown) : undefined;
    } catch {
      body = text;
    }
    const method = init?.method ?? (typeof input === 'object' && 'method' in input ? input.method : 'GET');
    (await openApiValidatorFor(baseUrl)).assert({
      method,
      path: url.pathname + url.search,
      status: res.status,
      contentType: res.headers.get('content-type'),
      body,
    });
    return res;
  };
}

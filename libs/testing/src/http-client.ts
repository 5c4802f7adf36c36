import { openApiValidatorFor } from './openapi/hub-openapi';

export interface HttpAnswer<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
}

/**
 * A small fetch wrapper for end-to-end tests: JSON in, JSON (or text) out. Every answer is checked
 * against the hub's own `/.well-known/openapi.json` (operation, status, content type, body schema),
 * so a suite fails as soon as behaviour and document part.
 */
export async function http<T = Record<string, unknown>>(
  baseUrl: string,
  method: string,
  path: string,
  options: { token?: string; body?: unknown; rawBody?: string | Uint8Array; headers?: Record<string, string> } = {},
): Promise<HttpAnswer<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers['authorization'] = `Bearer ${options.token}`;
  let body: string | Uint8Array | undefined;
  if (options.rawBody !== undefined) body = options.rawBody;
  else if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const res = await fetch(`${baseUrl}${path}`, { method, headers, body });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    // not JSON: keep the text
  }
  (await openApiValidatorFor(baseUrl)).assert({
    method,
    path,
    status: res.status,
    contentType: res.headers.get('content-type'),
    body: parsed,
  });
  return { status: res.status, headers: res.headers, body: parsed as T };
}

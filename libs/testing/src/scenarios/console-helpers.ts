import { type HubTarget } from '../hub-factory';

export interface ConsoleTarget extends HubTarget {
  /** A receiver on loopback the hub may deliver to (WEBHOOK_TEST_ENV allows 127.0.0.1). */
  capture: import('../webhook-capture').WebhookCapture;
  /** HUB_WEBSITE_URL as the console uses it (no trailing slash): where notifications link to (decision 0808). */
  website: string;
  /** A hub, or a gateway of the same hub, started with HUB_WEBSITE_URL empty: no links there. */
  noLinks: HubTarget;
}

export interface SignedIn {
  cookie: string;
  csrf: string;
  setCookie: string;
  body: { kind: string; user?: { name: string }; csrfToken: string; expiresAt: string };
}

/** Signs in as the console does (same-origin JSON POST) and returns the cookie and the CSRF token. */
export async function consoleSignIn(baseUrl: string, token: string): Promise<SignedIn> {
  const res = await fetch(`${baseUrl}/api/console/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'sec-fetch-site': 'same-origin' },
    body: JSON.stringify({ token }),
  });
  const body = (await res.json()) as SignedIn['body'];
  if (res.status !== 200) throw new Error(`sign-in answered ${res.status}: ${JSON.stringify(body)}`);
  const setCookie = res.headers.get('set-cookie') ?? '';
  return { cookie: setCookie.split(';')[0], csrf: body.csrfToken, setCookie, body };
}

/** A request carrying the session cookie (and, when given, the CSRF header), as the console's fetch would. */
export async function withCookie(
  baseUrl: string,
  method: string,
  path: string,
  s: { cookie: string; csrf?: string },
  body?: unknown,
): Promise<{ status: number; body: unknown }> {
  const headers: Record<string, string> = { cookie: s.cookie };
  if (s.csrf) headers['x-csrf-token'] = s.csrf;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${baseUrl}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as unknown) : undefined };
}

// Every call the console makes: the public API on this origin, with the session cookie and, on
// changes, the session's CSRF token (decision 0800).
export interface Session {
  kind: 'user' | 'operator';
  user?: { id: string; name: string; fullname: string; tokenRole: string };
  csrfToken: string;
  expiresAt: string;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

let csrf = '';
let onSignedOut: () => void = () => undefined;

export function useSession(session: Session | null, signedOut: () => void): void {
  csrf = session?.csrfToken ?? '';
  onSignedOut = signedOut;
}

async function send(method: string, path: string, body?: unknown): Promise<{ data: unknown; res: Response }> {
  const headers: Record<string, string> = {};
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (method !== 'GET' && csrf) headers['X-CSRF-Token'] = csrf;
  const res = await fetch(path, {
    method,
    headers,
    credentials: 'same-origin',
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  const data: unknown = text ? safeJson(text) : undefined;
  if (!res.ok) {
    const message = (data as { error?: string; message?: string } | undefined)?.error ?? res.statusText;
    if (res.status === 401 && !path.startsWith('/api/console/session')) onSignedOut();
    throw new ApiError(res.status, `${res.status}: ${typeof message === 'string' ? message : res.statusText}`);
  }
  return { data, res };
}

export async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  return (await send(method, path, body)).data as T;
}

/** One page of a list the API pages by `Link: <…>; rel="next"`, and the cursor of the next page. */
export interface Page<T> {
  items: T[];
  next?: string;
}

export async function apiPage<T>(path: string): Promise<Page<T>> {
  const { data, res } = await send('GET', path);
  const link = /<([^>]+)>;\s*rel="next"/.exec(res.headers.get('link') ?? '');
  const next = link?.[1] ? (new URL(link[1], location.href).searchParams.get('cursor') ?? undefined) : undefined;
  return { items: data as T[], next };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export const signIn = (token: string): Promise<Session> => api('POST', '/api/console/session', { token });
export const currentSession = (): Promise<Session> => api('GET', '/api/console/session');
export const signOut = (): Promise<void> => api('DELETE', '/api/console/session');

/** The hub's website, where notifications link to (`GET /api/console/config`, decision 0808); null: no links. */
let website: Promise<string | null> | null = null;
export function websiteUrl(): Promise<string | null> {
  website ??= api<{ websiteUrl: string | null }>('GET', '/api/console/config').then(
    (c) => c.websiteUrl,
    () => {
      website = null; // asked again next time
      return null;
    },
  );
  return website;
}

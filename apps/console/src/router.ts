import { useEffect, useState } from 'preact/hooks';

/** The console's place: `#/path?query`, so the filters and ids stay in the URL (links, reloads, back). */
export interface Route {
  path: string;
  query: URLSearchParams;
}

function parse(): Route {
  const raw = location.hash.replace(/^#/, '') || '/notifications';
  const [path, query = ''] = raw.split('?');
  return { path: path || '/notifications', query: new URLSearchParams(query) };
}

export function useRoute(): Route {
  const [route, setRoute] = useState(parse);
  useEffect(() => {
    const on = (): void => setRoute(parse());
    addEventListener('hashchange', on);
    return () => removeEventListener('hashchange', on);
  }, []);
  return route;
}

export function href(path: string, query?: Record<string, string | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(query ?? {})) if (v) q.set(k, v);
  const s = q.toString();
  return `#${path}${s ? `?${s}` : ''}`;
}

export function go(path: string, query?: Record<string, string | undefined>): void {
  location.hash = href(path, query);
}

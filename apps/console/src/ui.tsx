import { type ComponentChildren } from 'preact';
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { apiPage, type Page } from './api';

/** A value loaded from the API, with its error and a way to load again. */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[]): { data?: T; error?: string; reload: () => void } {
  const [state, setState] = useState<{ data?: T; error?: string }>({});
  const [n, setN] = useState(0);
  useEffect(() => {
    let live = true;
    load().then(
      (data) => live && setState({ data }),
      (e: Error) => live && setState({ error: e.message }),
    );
    return () => {
      live = false;
    };
  }, [...deps, n]);
  return { ...state, reload: useCallback(() => setN((x) => x + 1), []) };
}

export function Screen(props: { title: string; children: ComponentChildren }): preact.JSX.Element {
  useEffect(() => {
    document.title = `${props.title} · Hub console`;
    document.getElementById('screen-title')?.focus();
  }, [props.title]);
  return (
    <section aria-labelledby="screen-title">
      <h1 id="screen-title" tabIndex={-1}>
        {props.title}
      </h1>
      {props.children}
    </section>
  );
}

/** Errors and results are announced to screen readers as they appear. */
export function Status(props: { error?: string; message?: string; id?: string }): preact.JSX.Element {
  return (
    <p role="status" id={props.id} class={props.error ? 'status error' : 'status'}>
      {props.error ?? props.message ?? ''}
    </p>
  );
}

export function when(iso?: string | null): string {
  return iso ? new Date(iso).toLocaleString() : '—';
}

/**
 * Runs an action, reporting its error or its success message. `busy` is true while it runs; a
 * second run started meanwhile is ignored, so a double click sends one request.
 */
export function useAction(): {
  run: (action: () => Promise<unknown>, done?: string) => Promise<void>;
  busy: boolean;
  error?: string;
  message?: string;
} {
  const [state, setState] = useState<{ error?: string; message?: string; busy: boolean }>({ busy: false });
  const running = useRef(false);
  const run = async (action: () => Promise<unknown>, done?: string): Promise<void> => {
    if (running.current) return;
    running.current = true;
    setState({ busy: true });
    try {
      await action();
      setState({ message: done, busy: false });
    } catch (e) {
      // The API's message as it comes (a 409 or 429 says why and what to do).
      setState({ error: (e as Error).message, busy: false });
    } finally {
      running.current = false;
    }
  };
  return { run, ...state };
}

/** A wide table scrolls inside its own box (focusable, so a keyboard can scroll it), never the page. */
export function TableBox(props: { label: string; children: ComponentChildren }): preact.JSX.Element {
  return (
    <div class="table-box" role="region" aria-label={`${props.label} table`} tabIndex={0}>
      {props.children}
    </div>
  );
}

/**
 * A list the API pages by Link headers, one page at a time: `path(cursor)` is the URL of a page.
 * The cursors of the pages before are kept, so "Previous" goes back; new `deps` start at page 1.
 */
export function usePaged<T>(
  path: (cursor?: string) => string,
  deps: unknown[],
): { page?: Page<T>; error?: string; reload: () => void; number: number; next?: () => void; previous?: () => void } {
  const key = JSON.stringify(deps);
  const [state, setState] = useState<{ key: string; cursors: (string | undefined)[] }>({ key, cursors: [undefined] });
  const cursors = state.key === key ? state.cursors : [undefined];
  const setCursors = (c: (string | undefined)[]): void => setState({ key, cursors: c });
  const cursor = cursors[cursors.length - 1];
  const load = useLoad(() => apiPage<T>(path(cursor)), [key, cursor]);
  const next = load.data?.next;
  return {
    page: load.data,
    error: load.error,
    reload: load.reload,
    number: cursors.length,
    next: next ? () => setCursors([...cursors, next]) : undefined,
    previous: cursors.length > 1 ? () => setCursors(cursors.slice(0, -1)) : undefined,
  };
}

/** Previous and next page of a paged table; `of` tells screen readers which table (several share a screen). */
export function Pager(props: { of: string; paged: ReturnType<typeof usePaged> }): preact.JSX.Element {
  const p = props.paged;
  return (
    <nav class="pager" aria-label={`Pages of ${props.of}`}>
      <button type="button" disabled={!p.previous} onClick={p.previous}>
        Previous page<span class="sr-only"> of {props.of}</span>
      </button>
      <span>Page {p.number}</span>
      <button type="button" disabled={!p.next} onClick={p.next}>
        Next page<span class="sr-only"> of {props.of}</span>
      </button>
    </nav>
  );
}

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

/** The inbox's unread count, shown in the menu and the tab's title (decision 0806); null: not known. */
let unread: number | null = null;
const unreadListeners = new Set<(n: number | null) => void>();

export function setUnread(n: number | null): void {
  if (n === unread) return;
  unread = n;
  unreadListeners.forEach((l) => l(n));
}

export function useUnread(): number | null {
  const [n, setN] = useState(unread);
  useEffect(() => {
    unreadListeners.add(setN);
    return () => void unreadListeners.delete(setN);
  }, []);
  return n;
}

export function Screen(props: { title: string; children: ComponentChildren }): preact.JSX.Element {
  const n = useUnread();
  useEffect(() => {
    document.getElementById('screen-title')?.focus();
  }, [props.title]);
  useEffect(() => {
    document.title = `${n ? `(${n}) ` : ''}${props.title} · Hub console`;
  }, [props.title, n]);
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

/** Every relative time on screen is redrawn from one timer (decision 0804). */
const ticking = new Set<() => void>();
let timer: ReturnType<typeof setInterval> | undefined;

function useMinuteTick(): void {
  const [, setN] = useState(0);
  useEffect(() => {
    const tick = (): void => setN((x) => x + 1);
    ticking.add(tick);
    timer ??= setInterval(() => ticking.forEach((t) => t()), 30_000);
    return () => {
      ticking.delete(tick);
      if (ticking.size === 0 && timer) {
        clearInterval(timer);
        timer = undefined;
      }
    };
  }, []);
}

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 86_400_000],
  ['month', 30 * 86_400_000],
  ['week', 7 * 86_400_000],
  ['day', 86_400_000],
  ['hour', 3_600_000],
  ['minute', 60_000],
  ['second', 1000],
];

/** "3 minutes ago", "in 2 hours", "now": the largest unit that is at least one. */
export function relative(ms: number, now = Date.now()): string {
  const d = ms - now;
  const format = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });
  if (Math.abs(d) < 10_000) return format.format(0, 'second');
  const [unit, size] = UNITS.find(([, s]) => Math.abs(d) >= s) ?? UNITS[UNITS.length - 1];
  return format.format(Math.trunc(d / size), unit);
}

/** The exact time with its timezone: what a hover on a relative time shows. */
export function exact(iso: string): string {
  return new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'long' });
}

function When(props: { iso: string }): preact.JSX.Element {
  useMinuteTick();
  return (
    <time dateTime={props.iso} title={exact(props.iso)}>
      {relative(Date.parse(props.iso))}
    </time>
  );
}

/** A time as people read it: relative, the exact time and timezone on hover; "—" when there is none. */
export function when(iso?: string | null): preact.JSX.Element | string {
  return iso ? <When iso={iso} /> : '—';
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

/** "1 h 2 min", "3 min 5 s", "4 s": from start to end, or to now while it runs. */
export function duration(from: string, to?: string | null): string {
  const s = Math.max(0, Math.round(((to ? Date.parse(to) : Date.now()) - Date.parse(from)) / 1000));
  if (s >= 3600) return `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`;
  if (s >= 60) return `${Math.floor(s / 60)} min ${s % 60} s`;
  return `${s} s`;
}

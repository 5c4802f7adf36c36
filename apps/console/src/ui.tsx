import { type ComponentChildren } from 'preact';
import { useCallback, useEffect, useState } from 'preact/hooks';

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
export function Status(props: { error?: string; message?: string }): preact.JSX.Element {
  return (
    <p role="status" class={props.error ? 'status error' : 'status'}>
      {props.error ?? props.message ?? ''}
    </p>
  );
}

export function when(iso?: string | null): string {
  return iso ? new Date(iso).toLocaleString() : '—';
}

/** Runs an action, reporting its error or its success message. */
export function useAction(): {
  run: (action: () => Promise<unknown>, done?: string) => Promise<void>;
  error?: string;
  message?: string;
} {
  const [state, setState] = useState<{ error?: string; message?: string }>({});
  const run = async (action: () => Promise<unknown>, done?: string): Promise<void> => {
    setState({});
    try {
      await action();
      setState({ message: done });
    } catch (e) {
      setState({ error: (e as Error).message });
    }
  };
  return { run, ...state };
}

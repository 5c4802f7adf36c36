import { useState } from 'preact/hooks';
import { api } from '../api';
import { Status, useAction } from '../ui';
import { type Delivery } from './deliveries';

interface Recovery {
  id: string;
  state: string;
  since: string;
  queued: number;
  sent: number;
  succeeded: number;
  failed: number;
}

/** A datetime-local value (local time) for an instant. */
function local(ms: number): string {
  return new Date(ms - new Date(ms).getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
}

const HOUR = 3600_000;

/**
 * Bulk recovery (`POST …/recover`): resends once the deliveries whose retries are used up (or that
 * were dropped while the webhook was off) since a time. Before: how many of those shown it takes;
 * after: its progress, or why it found none. The API's refusal (a recovery running, too many) shows
 * as it comes.
 */
export function RecoveryForm(props: { base: string; deliveries: Delivery[]; onDone: () => void }): preact.JSX.Element {
  const [since, setSince] = useState('');
  const [recovery, setRecovery] = useState<Recovery | null>(null);
  const action = useAction();
  const from = since ? new Date(since).getTime() : NaN;
  const inWindow = (d: Delivery): boolean => d.attempts.some((a) => Date.parse(a.createdAt) >= from);
  const spent = props.deliveries.filter((d) => d.state === 'spent' && inWindow(d)).length;
  const retrying = props.deliveries.filter((d) => d.state === 'retrying').length;
  const submit = (e: Event): void => {
    e.preventDefault();
    void action.run(async () => {
      setRecovery(null);
      let r = await api<Recovery>('POST', `${props.base}/recover`, { since: new Date(since).toISOString() });
      setRecovery(r);
      while (r.state === 'queued' || r.state === 'running') {
        await new Promise((done) => setTimeout(done, 1000));
        r = await api<Recovery>('GET', `${props.base}/recoveries/${r.id}`);
        setRecovery(r);
      }
      props.onDone();
    }, 'Recovery finished');
  };
  return (
    <form class="card" onSubmit={submit} aria-labelledby="recovery-title">
      <h2 id="recovery-title">Recover failed deliveries</h2>
      <p class="meta">
        A recovery resends, once, every delivery whose retries are used up (or that was dropped while the webhook was
        off) since the time you choose. Deliveries still being retried are not taken.
      </p>
      <label>
        Recover failed deliveries since
        <input type="datetime-local" required value={since} onInput={(e) => setSince(e.currentTarget.value)} />
      </label>
      <button type="button" class="secondary" onClick={() => setSince(local(Date.now() - HOUR))}>
        Last hour
      </button>
      <button type="button" class="secondary" onClick={() => setSince(local(Date.now() - 24 * HOUR))}>
        Last day
      </button>
      <button type="submit" disabled={action.busy}>
        Recover
      </button>
      {since && !Number.isNaN(from) && (
        <p class="meta" aria-live="polite">
          Of the deliveries shown below, {spent} {spent === 1 ? 'has' : 'have'} used up {spent === 1 ? 'its' : 'their'}{' '}
          retries since then and would be resent
          {retrying > 0 ? `; ${retrying} still being retried would not` : ''}.
        </p>
      )}
      <Status error={action.error} message={action.message} />
      {recovery && (
        <p aria-live="polite" class="recovery">
          {recovery.queued > 0
            ? `Recovery ${recovery.state}: ${recovery.sent} of ${recovery.queued} sent, ${recovery.succeeded} succeeded, ${recovery.failed} failed`
            : `Nothing to recover since ${new Date(recovery.since).toLocaleString()}: only deliveries whose retries are used up are recovered${
                retrying > 0 ? `, and ${retrying} shown here ${retrying === 1 ? 'is' : 'are'} still being retried` : ''
              }.`}
        </p>
      )}
    </form>
  );
}

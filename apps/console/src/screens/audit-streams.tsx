import { useState } from 'preact/hooks';
import { api } from '../api';
import { useConfirm } from '../confirm';
import { Status, TableBox, useAction, useLoad, when } from '../ui';
import { AuditStreamForm } from './audit-stream-form';

export interface AuditStream {
  id: string;
  type: string;
  state: 'active' | 'paused' | 'failing';
  url?: string;
  bucket?: string;
  prefix?: string;
  region?: string;
  endpoint?: string;
  site?: string;
  hints: Record<string, string>;
  filter?: string[];
  lastError: string | null;
  failingSince: string | null;
  lastDeliveredAt: string | null;
  dropped: number;
}

interface Delivery {
  at: string;
  kind: 'batch' | 'test' | 'dropped';
  records: number;
  ok: boolean;
  status: number | null;
  error: string | null;
  latencyMs: number;
}

interface TestAnswer {
  ok: boolean;
  status: number | null;
  body: string;
  error: string | null;
  latencyMs: number;
}

/** Where a stream sends, in a few words (rows, buttons, the confirm question). */
const label = (s: AuditStream): string =>
  s.type === 'datadog'
    ? `Datadog ${s.site ?? ''}`
    : s.type === 's3'
      ? `s3://${s.bucket ?? ''}${s.prefix ? `/${s.prefix}` : ''}${s.endpoint ? ` at ${s.endpoint}` : ''}`
      : (s.url ?? s.type);

function StatePill(props: { s: AuditStream }): preact.JSX.Element {
  const s = props.s;
  const cls = s.state === 'active' ? 'pill on' : s.state === 'paused' ? 'pill paused' : 'pill off';
  return (
    <>
      <span class={cls}>{s.state}</span>
      {s.lastError && (
        <small class="field-error">
          {s.lastError}
          {s.failingSince ? <> (failing since {when(s.failingSince)})</> : ''}
        </small>
      )}
      {s.dropped > 0 && <small class="field-error">{s.dropped} events dropped after the retention window</small>}
    </>
  );
}

const answerOf = (s: AuditStream, a: TestAnswer): string =>
  a.status !== null
    ? `Test of ${label(s)}: the destination answered ${a.status} in ${a.latencyMs} ms${a.body ? `: ${a.body}` : ''}`
    : `Test of ${label(s)} failed after ${a.latencyMs} ms: ${a.error ?? 'no answer'}`;

/**
 * An Enterprise organization's audit log streams, for its admins (issue 39): the list with each
 * stream's state, its credentials as hints, pause/resume, test (the destination's answer shown),
 * its delivery log, delete after a confirmation; the create form behind "New stream".
 */
export function AuditStreams(props: { org: string }): preact.JSX.Element {
  const base = `/api/organizations/${encodeURIComponent(props.org)}/audit-log/streams`;
  const list = useLoad(() => api<AuditStream[]>('GET', base), [base]);
  const action = useAction();
  const confirm = useConfirm();
  const [creating, setCreating] = useState(false);
  const [logOf, setLogOf] = useState<AuditStream>();
  const [answer, setAnswer] = useState<{ text: string; ok: boolean }>();
  const act = (s: AuditStream, verb: 'pause' | 'resume'): void => {
    setAnswer(undefined);
    void action.run(
      async () => {
        await api('POST', `${base}/${s.id}/${verb}`);
        list.reload();
      },
      verb === 'pause' ? 'Paused: events wait until it is resumed' : 'Resumed',
    );
  };
  const test = (s: AuditStream): void => {
    setAnswer(undefined);
    void action.run(async () => {
      const a = await api<TestAnswer>('POST', `${base}/${s.id}/test`);
      setAnswer({ text: answerOf(s, a), ok: a.ok });
    });
  };
  const remove = async (s: AuditStream): Promise<void> => {
    setAnswer(undefined);
    const sure = await confirm.ask({
      title: 'Delete this stream?',
      body: `${label(s)} stops receiving the audit log, events not yet sent are not sent, and its delivery log goes with it. This cannot be undone.`,
      confirm: 'Delete stream',
    });
    if (sure)
      await action.run(async () => {
        await api('DELETE', `${base}/${s.id}`);
        if (logOf?.id === s.id) setLogOf(undefined);
        list.reload();
      }, 'Stream deleted');
  };
  return (
    <section aria-labelledby="streams-title" class="card">
      <h2 id="streams-title">Audit log streams</h2>
      <p>Every audit event, sent as it happens to your security tools; credentials are never shown again.</p>
      <button type="button" aria-expanded={creating} onClick={() => setCreating(!creating)}>
        {creating ? 'Close the form' : 'New stream'}
      </button>
      {creating && (
        <AuditStreamForm
          base={base}
          onCreated={() => {
            setCreating(false);
            list.reload();
          }}
        />
      )}
      {answer ? (
        <Status error={answer.ok ? undefined : answer.text} message={answer.text} />
      ) : (
        <Status error={action.error ?? list.error} message={action.message} />
      )}
      {confirm.dialog}
      {list.data?.length === 0 && <p>No streams yet.</p>}
      {!!list.data?.length && (
        <TableBox label="Audit log streams">
          <table>
            <caption>Audit log streams</caption>
            <thead>
              <tr>
                <th scope="col">Destination</th>
                <th scope="col">Type</th>
                <th scope="col">State</th>
                <th scope="col">Credentials</th>
                <th scope="col">Families</th>
                <th scope="col">Last delivered</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {list.data.map((s) => (
                <tr key={s.id}>
                  <td>{label(s)}</td>
                  <td>{s.type}</td>
                  <td>
                    <StatePill s={s} />
                  </td>
                  <td>
                    {Object.entries(s.hints)
                      .map(([k, v]) => `${k} ${v}`)
                      .join(', ')}
                  </td>
                  <td>{s.filter?.join(', ') ?? 'all'}</td>
                  <td>{when(s.lastDeliveredAt)}</td>
                  <td>
                    <div class="row-actions">
                      <button
                        type="button"
                        disabled={action.busy}
                        onClick={() => act(s, s.state === 'paused' ? 'resume' : 'pause')}
                      >
                        {s.state === 'paused' ? 'Resume' : 'Pause'}
                        <span class="sr-only"> stream to {label(s)}</span>
                      </button>
                      <button type="button" disabled={action.busy} onClick={() => test(s)}>
                        Test<span class="sr-only"> stream to {label(s)}</span>
                      </button>
                      <button
                        type="button"
                        aria-pressed={logOf?.id === s.id}
                        onClick={() => setLogOf(logOf?.id === s.id ? undefined : s)}
                      >
                        Delivery log<span class="sr-only"> of stream to {label(s)}</span>
                      </button>
                      <button type="button" class="danger" disabled={action.busy} onClick={() => void remove(s)}>
                        Delete<span class="sr-only"> stream to {label(s)}</span>
                      </button>
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableBox>
      )}
      {logOf && <DeliveryLog key={logOf.id} base={`${base}/${logOf.id}`} name={label(logOf)} />}
    </section>
  );
}

/** A stream's delivery log, newest first: batches, tests and drops with their answer and latency. */
function DeliveryLog(props: { base: string; name: string }): preact.JSX.Element {
  const log = useLoad(() => api<{ items: Delivery[] }>('GET', `${props.base}/deliveries?limit=50`), [props.base]);
  return (
    <section aria-labelledby="stream-log-title">
      <h3 id="stream-log-title">Delivery log of {props.name}</h3>
      <button type="button" onClick={log.reload}>
        Refresh the delivery log
      </button>
      <Status error={log.error} />
      {log.data?.items.length === 0 && <p>Nothing sent yet.</p>}
      {!!log.data?.items.length && (
        <TableBox label="Delivery log">
          <table>
            <caption>Delivery log (newest first, last 50)</caption>
            <thead>
              <tr>
                <th scope="col">Time</th>
                <th scope="col">Kind</th>
                <th scope="col">Records</th>
                <th scope="col">Status</th>
                <th scope="col">Error</th>
                <th scope="col">Latency</th>
              </tr>
            </thead>
            <tbody>
              {log.data.items.map((d, i) => (
                <tr key={`${d.at}-${i}`}>
                  <td>{when(d.at)}</td>
                  <td>{d.kind}</td>
                  <td>{d.records}</td>
                  <td>
                    <span class={d.ok ? 'pill on' : 'pill off'}>{d.status ?? (d.ok ? 'ok' : 'failed')}</span>
                  </td>
                  <td>{d.error ?? ''}</td>
                  <td>{d.latencyMs} ms</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableBox>
      )}
    </section>
  );
}

import { useEffect, useState } from 'preact/hooks';
import { api } from '../api';
import { Status, useAction } from '../ui';

type StreamType = 'https' | 's3' | 'splunk' | 'datadog';

/** A field of a destination: its body name, label, input kind, and whether it may be left empty. */
interface Field {
  name: string;
  label: string;
  kind: 'text' | 'url' | 'secret' | 'site';
  optional?: boolean;
}

/** The flat create body of issue 39, per type (the API's AUDIT_STREAM_FIELDS). */
const TYPES: [StreamType, string, Field[]][] = [
  [
    'https',
    'Any HTTPS endpoint (signed JSON lines)',
    [
      { name: 'url', label: 'Endpoint URL', kind: 'url' },
      { name: 'secret', label: 'Signing secret (16 to 256 characters)', kind: 'secret' },
    ],
  ],
  [
    's3',
    'S3-compatible storage',
    [
      { name: 'bucket', label: 'Bucket', kind: 'text' },
      { name: 'prefix', label: 'Key prefix (optional)', kind: 'text', optional: true },
      { name: 'region', label: 'Region', kind: 'text' },
      { name: 'endpoint', label: 'Endpoint URL (optional: AWS when empty)', kind: 'url', optional: true },
      { name: 'accessKeyId', label: 'Access key id', kind: 'secret' },
      { name: 'secretAccessKey', label: 'Secret access key', kind: 'secret' },
    ],
  ],
  [
    'splunk',
    'Splunk HTTP Event Collector',
    [
      { name: 'url', label: 'HEC URL', kind: 'url' },
      { name: 'token', label: 'HEC token', kind: 'secret' },
    ],
  ],
  [
    'datadog',
    'Datadog Logs',
    [
      { name: 'site', label: 'Datadog site', kind: 'site' },
      { name: 'apiKey', label: 'API key', kind: 'secret' },
    ],
  ],
];

const DATADOG_SITES = [
  'datadoghq.com',
  'us3.datadoghq.com',
  'us5.datadoghq.com',
  'datadoghq.eu',
  'ap1.datadoghq.com',
  'ap2.datadoghq.com',
  'ddog-gov.com',
];

/** The API's 400 names its field first (`url must be …`, `secret is required for …`): that field, and the words. */
export function fieldOf(error?: string): { field?: string; text?: string } {
  const m = /^\d+: ([A-Za-z]+) (.*)$/s.exec(error ?? '');
  return m ? { field: m[1], text: `${m[1]} ${m[2]}` } : {};
}

/**
 * A new stream: the destination's type, then its fields (credentials write-only, cleared once the
 * API has them), and the action families to stream. The API judges every value; its message shows
 * at the field it names, which takes the focus.
 */
export function AuditStreamForm(props: { base: string; onCreated: () => void }): preact.JSX.Element {
  const [type, setType] = useState<StreamType>('https');
  const [values, setValues] = useState<Record<string, string>>({ site: DATADOG_SITES[0] as string });
  const [filter, setFilter] = useState('');
  const action = useAction();
  const fields = TYPES.find(([t]) => t === type)?.[2] ?? [];
  const names = [...fields.map((f) => f.name), 'filter', 'type'];
  const error = fieldOf(action.error);
  const atField = error.field && names.includes(error.field) ? error.field : undefined;
  useEffect(() => {
    if (atField) document.getElementById(`stream-${atField}`)?.focus();
  }, [action.error]);

  const create = (e: Event): void => {
    e.preventDefault();
    void action.run(async () => {
      const body: Record<string, unknown> = { type };
      for (const f of fields) if (values[f.name]?.trim()) body[f.name] = values[f.name]?.trim();
      const families = filter
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
      if (families.length) body['filter'] = families;
      await api('POST', props.base, body);
      setValues({ site: DATADOG_SITES[0] as string });
      setFilter('');
      props.onCreated();
    }, 'Stream created');
  };
  const aria = (name: string): Record<string, unknown> =>
    atField === name ? { 'aria-invalid': true, 'aria-describedby': `stream-${name}-error` } : {};
  const errorAt = (name: string): preact.JSX.Element | null =>
    atField === name ? (
      <small id={`stream-${name}-error`} class="field-error">
        {error.text}
      </small>
    ) : null;
  const set = (name: string, value: string): void => setValues({ ...values, [name]: value });

  return (
    <form class="card wide" onSubmit={create} noValidate aria-labelledby="stream-form-title">
      <h3 id="stream-form-title">New stream</h3>
      <label>
        Destination
        <select id="stream-type" value={type} onChange={(e) => setType(e.currentTarget.value as StreamType)}>
          {TYPES.map(([t, label]) => (
            <option key={t} value={t}>
              {label}
            </option>
          ))}
        </select>
      </label>
      {errorAt('type')}
      {fields.map((f) => (
        <div key={`${type}-${f.name}`} class="field">
          <label>
            {f.label}
            {f.kind === 'site' ? (
              <select
                id={`stream-${f.name}`}
                value={values[f.name]}
                onChange={(e) => set(f.name, e.currentTarget.value)}
              >
                {DATADOG_SITES.map((s) => (
                  <option key={s} value={s}>
                    {s}
                  </option>
                ))}
              </select>
            ) : (
              <input
                id={`stream-${f.name}`}
                // Preact's types tie `role` to each input type; these three take the same attributes.
                type={(f.kind === 'secret' ? 'password' : f.kind) as 'text'}
                autoComplete={f.kind === 'secret' ? 'new-password' : 'off'}
                required={!f.optional}
                value={values[f.name] ?? ''}
                onInput={(e) => set(f.name, e.currentTarget.value)}
                {...aria(f.name)}
              />
            )}
          </label>
          {errorAt(f.name)}
        </div>
      ))}
      <label>
        Action families (optional)
        <input
          id="stream-filter"
          value={filter}
          placeholder="org, repo"
          aria-describedby={atField === 'filter' ? 'stream-filter-error' : 'stream-filter-help'}
          aria-invalid={atField === 'filter' ? true : undefined}
          onInput={(e) => setFilter(e.currentTarget.value)}
        />
      </label>
      <small id="stream-filter-help">
        comma separated, the part of an event type before its first dot; every event when empty
      </small>
      {errorAt('filter')}
      <button type="submit" disabled={action.busy}>
        Create stream
      </button>
      <Status error={atField ? undefined : action.error} message={action.message} />
    </form>
  );
}

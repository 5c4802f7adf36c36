import { api } from '../api';
import { useLoad } from '../ui';

/** A webhook's job as the API returns it (spec 2.5): secrets by name only. */
export interface WebhookJob {
  dockerImage?: string;
  spaceId?: string;
  environment: Record<string, string>;
  arguments?: string[];
  command?: string[];
  flavor: string;
  timeoutSeconds: number | null;
  labels?: Record<string, string>;
  secrets?: string[];
}

/** The job part of the form, as typed: lists one item a line, maps `KEY=value` a line. */
export interface JobFields {
  source: 'image' | 'space';
  image: string;
  space: string;
  command: string;
  args: string;
  flavor: string;
  env: string;
  labels: string;
  timeout: string;
  /** The rest of spec 4.6's job: the API does not return them, so they start empty on edit. */
  secrets: string;
  arch: string;
  attempts: string;
  volumes: string;
  ports: string;
  publicPorts: string;
  ssh: boolean;
}

const pairs = (map?: Record<string, string>, separator = '\n'): string =>
  Object.entries(map ?? {})
    .map(([k, v]) => `${k}=${v}`)
    .join(separator);

export function jobFieldsOf(job?: WebhookJob): JobFields {
  return {
    source: job?.spaceId ? 'space' : 'image',
    image: job?.dockerImage ?? '',
    space: job?.spaceId ?? '',
    command: (job?.command ?? []).join('\n'),
    args: (job?.arguments ?? []).join('\n'),
    flavor: job?.flavor ?? 'cpu-basic',
    env: pairs(job?.environment),
    labels: pairs(job?.labels, ', '),
    timeout: job?.timeoutSeconds ? String(job.timeoutSeconds) : '',
    secrets: '',
    arch: '',
    attempts: '',
    volumes: '',
    ports: '',
    publicPorts: '',
    ssh: false,
  };
}

/** Whether the form's job differs from the webhook's (any field the API returns, or any it does not, filled in). */
export function jobChanged(f: JobFields, job: WebhookJob): boolean {
  return JSON.stringify(f) !== JSON.stringify(jobFieldsOf(job));
}

const lines = (s: string): string[] =>
  s
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);

/** `KEY=value` items (a line each, or `separator`) as a map; an item without `=` is a key with an empty value (the API names a bad key). */
const map = (s: string, separator = '\n'): Record<string, string> =>
  Object.fromEntries(
    lines(s.split(separator).join('\n')).map((l) => {
      const at = l.indexOf('=');
      return at < 0 ? [l, ''] : [l.slice(0, at).trim(), l.slice(at + 1).trim()];
    }),
  );

const ports = (s: string): number[] =>
  s
    .split(/[\s,]+/)
    .filter(Boolean)
    .map(Number);

/** Spec 4.6's job object from the form: only what was filled in, so the API's defaults apply. */
export function jobBody(f: JobFields): Record<string, unknown> {
  const job: Record<string, unknown> = { flavor: f.flavor };
  if (f.source === 'image') job['dockerImage'] = f.image.trim();
  else job['spaceId'] = f.space.trim();
  if (lines(f.command).length) job['command'] = lines(f.command);
  if (lines(f.args).length) job['arguments'] = lines(f.args);
  if (f.env.trim()) job['environment'] = map(f.env);
  if (f.secrets.trim()) job['secrets'] = map(f.secrets);
  if (f.labels.trim()) job['labels'] = map(f.labels, ',');
  if (f.arch) job['arch'] = f.arch;
  if (f.timeout) job['timeoutSeconds'] = Number(f.timeout);
  if (f.attempts) job['attempts'] = Number(f.attempts);
  if (lines(f.volumes).length)
    job['volumes'] = lines(f.volumes).map((l) => {
      const [type, source, mountPath, mode] = l.split(/\s+/);
      return { type, source, mountPath, ...(mode ? { readOnly: mode === 'ro' } : {}) };
    });
  if (f.ports.trim())
    job['expose'] = { ports: ports(f.ports), ...(f.publicPorts.trim() ? { portsPublic: ports(f.publicPorts) } : {}) };
  if (f.ssh) job['ssh'] = { enabled: true };
  return job;
}

/** What a field the API's message names carries: invalid, and pointing at the message. */
export interface FieldError {
  'aria-invalid'?: boolean;
  'aria-describedby'?: string;
}
export const fieldError = (invalid: boolean, errorId: string, help?: string): FieldError =>
  invalid
    ? { 'aria-invalid': true, 'aria-describedby': help ? `${help} ${errorId}` : errorId }
    : help
      ? { 'aria-describedby': help }
      : {};

interface Hardware {
  name: string;
  prettyName: string;
}

/**
 * The job fields of spec 4.6. `invalid(path)` says whether the API's last message names the field
 * (`job.flavor must be …`); such a field points at the message (`aria-describedby`).
 */
export function JobFieldsSet(props: {
  value: JobFields;
  onChange: (f: JobFields) => void;
  secretNames?: string[];
  invalid: (path: string) => boolean;
  errorId: string;
}): preact.JSX.Element {
  const f = props.value;
  const hardware = useLoad(() => api<Hardware[]>('GET', '/api/jobs/hardware'), []);
  const flavors = hardware.data?.map((h) => h.name) ?? [];
  if (!flavors.includes(f.flavor)) flavors.unshift(f.flavor);
  const set =
    (k: keyof JobFields) =>
    (e: { currentTarget: { value: string } }): void =>
      props.onChange({ ...f, [k]: e.currentTarget.value });
  const aria = (path: string): FieldError => fieldError(props.invalid(path), props.errorId);
  return (
    <fieldset>
      <legend>Job to run on each trigger</legend>
      <fieldset>
        <legend>Runs</legend>
        <label class="inline">
          <input
            type="radio"
            name="job-source"
            checked={f.source === 'image'}
            onChange={() => props.onChange({ ...f, source: 'image' })}
          />{' '}
          a Docker image
        </label>
        <label class="inline">
          <input
            type="radio"
            name="job-source"
            checked={f.source === 'space'}
            onChange={() => props.onChange({ ...f, source: 'space' })}
          />{' '}
          a Space
        </label>
      </fieldset>
      {f.source === 'image' ? (
        <label>
          Docker image
          <input
            required
            value={f.image}
            placeholder="python:3.12"
            onInput={set('image')}
            {...aria('job.dockerImage')}
          />
        </label>
      ) : (
        <label>
          Space
          <input required value={f.space} placeholder="owner/name" onInput={set('space')} {...aria('job.spaceId')} />
        </label>
      )}
      <label>
        Command (one argument a line)
        <textarea
          rows={3}
          value={f.command}
          placeholder={'sh\n-c\necho $WEBHOOK_REPO_ID'}
          onInput={set('command')}
          {...aria('job.command')}
        />
      </label>
      <label>
        Arguments (one a line)
        <textarea rows={2} value={f.args} onInput={set('args')} {...aria('job.arguments')} />
      </label>
      <label>
        Flavor
        <select value={f.flavor} onChange={set('flavor')} {...aria('job.flavor')}>
          {flavors.map((name) => (
            <option key={name} value={name}>
              {hardware.data?.find((h) => h.name === name)?.prettyName ?? name}
            </option>
          ))}
        </select>
      </label>
      <label>
        Environment (KEY=value, one a line)
        <textarea rows={2} value={f.env} onInput={set('env')} {...aria('job.environment')} />
      </label>
      <label>
        Secrets (KEY=value, one a line; write-only
        {props.secretNames?.length
          ? `: set now ${props.secretNames.join(', ')}, type them all again to change the job`
          : ''}
        )
        <textarea
          rows={2}
          value={f.secrets}
          autoComplete="off"
          spellcheck={false}
          onInput={set('secrets')}
          {...aria('job.secrets')}
        />
      </label>
      <label>
        Labels (key=value, comma separated)
        <input value={f.labels} onInput={set('labels')} {...aria('job.labels')} />
      </label>
      <label>
        Timeout in seconds (empty: none)
        <input type="number" min={1} value={f.timeout} onInput={set('timeout')} {...aria('job.timeoutSeconds')} />
      </label>
      <details>
        <summary>More job options (not returned by the API: fill them in again when you change the job)</summary>
        <label>
          Attempts (1 = no retry)
          <input type="number" min={1} value={f.attempts} onInput={set('attempts')} {...aria('job.attempts')} />
        </label>
        <label>
          Architecture
          <select value={f.arch} onChange={set('arch')} {...aria('job.arch')}>
            <option value="">any</option>
            <option value="amd64">amd64</option>
            <option value="arm64">arm64</option>
          </select>
        </label>
        <label>
          Volumes (type source /mount/path [ro|rw], one a line)
          <textarea
            rows={2}
            value={f.volumes}
            placeholder="model owner/name /data ro"
            onInput={set('volumes')}
            {...aria('job.volumes')}
          />
        </label>
        <label>
          Exposed ports (comma separated)
          <input value={f.ports} onInput={set('ports')} {...aria('job.expose')} />
        </label>
        <label>
          Public ports (a subset of the exposed ones)
          <input value={f.publicPorts} onInput={set('publicPorts')} {...aria('job.expose.portsPublic')} />
        </label>
        <label class="inline">
          <input
            type="checkbox"
            checked={f.ssh}
            onChange={(e) => props.onChange({ ...f, ssh: e.currentTarget.checked })}
          />{' '}
          SSH access
        </label>
      </details>
    </fieldset>
  );
}

import { useState } from 'preact/hooks';
import { api } from '../api';
import { Status, useAction, useLoad } from '../ui';
import { type Job, useNamespaces } from './jobs';
import { privateAddress } from './private-address';
import {
  fieldError,
  jobBody,
  jobChanged,
  type JobFields,
  JobFieldsSet,
  jobFieldsOf,
  type FieldError,
  type WebhookJob,
} from './webhook-job-fields';

export interface Webhook {
  id: string;
  url?: string;
  job?: WebhookJob;
  jobSourceId?: string;
  disabled: boolean | 'suspended-after-failure';
  watched: { type: string; name: string }[];
  domains: string[];
  hasSecret: boolean;
  lastTriggerAt?: string;
}

/** Spec 2.4's targets: a URL, a job, or a copy of an existing job. */
type Kind = 'url' | 'job' | 'copy';
const KINDS: [Kind, string][] = [
  ['url', 'Post to a URL'],
  ['job', 'Run a job'],
  ['copy', 'Run a copy of an existing job'],
];
// A copy of a job also answers its `job` (decision 0630): `jobSourceId` says which kind it is.
const kindOf = (w?: Webhook): Kind => (w?.jobSourceId ? 'copy' : w?.job ? 'job' : 'url');

/** What a webhook does on a trigger, in a word (lists and titles). */
export const targetOf = (w: Webhook): string =>
  w.url ?? (w.jobSourceId ? `copy of job ${w.jobSourceId}` : `job ${w.job?.dockerImage ?? w.job?.spaceId ?? ''}`);

const ERROR_ID = 'webhook-form-error';

/** The API's messages start with the field they are about (`job.flavor must be …`): that field's path. */
const pathOf = (error?: string): string | undefined => /^\d+: ([A-Za-z.]+)/.exec(error ?? '')?.[1];

/**
 * Create, or edit when given a webhook: spec 4.6's fields. The secret is write-only (never shown),
 * the job's secrets too (names only). Edit keeps the kind; an unchanged job is not sent, so the
 * API keeps it whole (secrets and the fields it does not return included).
 */
export function WebhookForm(props: { webhook?: Webhook; onSaved: () => void }): preact.JSX.Element {
  const w = props.webhook;
  const [kind, setKind] = useState<Kind>(kindOf(w));
  const [url, setUrl] = useState(w?.url ?? '');
  const [sourceId, setSourceId] = useState(w?.jobSourceId ?? '');
  const [job, setJob] = useState<JobFields>(jobFieldsOf(w?.job));
  const [dropSecrets, setDropSecrets] = useState(false);
  const [watched, setWatched] = useState(w?.watched.map((x) => `${x.type}:${x.name}`).join(', ') ?? '');
  const [domains, setDomains] = useState(w?.domains ?? ['repo', 'discussion']);
  const [secret, setSecret] = useState('');
  const action = useAction();
  const errorPath = pathOf(action.error);
  const invalid = (path: string): boolean =>
    !!errorPath && (errorPath === path || errorPath.startsWith(`${path}.`) || path.startsWith(`${errorPath}.`));
  const aria = (path: string, help?: string): FieldError => fieldError(invalid(path), ERROR_ID, help);
  // The job this webhook holds itself (a copy's `job` is its source's, decision 0630).
  const ownJob = w?.jobSourceId ? undefined : w?.job;
  const heldSecrets = ownJob?.secrets ?? [];

  const target = (): Record<string, unknown> => {
    if (kind === 'url') return { url };
    if (kind === 'copy') return { jobSourceId: sourceId.trim() };
    if (ownJob && !jobChanged(job, ownJob) && !dropSecrets) return {};
    if (ownJob && heldSecrets.length && !job.secrets.trim() && !dropSecrets)
      throw new Error(
        `The job's secrets (${heldSecrets.join(', ')}) are never shown again: type them again under Secrets, or tick “Remove the job's secrets”.`,
      );
    return { job: jobBody(job) };
  };
  const save = (e: Event): void => {
    e.preventDefault();
    void action.run(
      async () => {
        const body = {
          ...target(),
          domains,
          watched: watched
            .split(',')
            .map((s) => s.trim())
            .filter(Boolean)
            .map((s) => {
              const [type, ...name] = s.split(':');
              return { type, name: name.join(':') };
            }),
          ...(secret ? { secret } : {}),
        };
        await api('POST', `/api/settings/webhooks${w ? `/${w.id}` : ''}`, body);
        // Write-only: what was typed is not kept on the page once the API has it.
        setSecret('');
        setJob((f) => ({ ...f, secrets: '' }));
        props.onSaved();
      },
      w ? 'Saved' : 'Webhook created',
    );
  };
  const toggle = (d: string): void =>
    setDomains(domains.includes(d) ? domains.filter((x) => x !== d) : [...domains, d]);
  return (
    <form class="card wide" onSubmit={save} aria-labelledby="webhook-form-title">
      <h2 id="webhook-form-title">{w ? 'Edit webhook' : 'New webhook'}</h2>
      <fieldset>
        <legend>On each trigger</legend>
        {KINDS.map(([k, label]) => (
          <label key={k} class="inline">
            <input type="radio" name="webhook-kind" value={k} checked={kind === k} onChange={() => setKind(k)} />{' '}
            {label}
          </label>
        ))}
      </fieldset>
      {kind === 'url' && (
        <label>
          Target URL
          <input
            type="url"
            required
            value={url}
            onInput={(e) => setUrl(e.currentTarget.value)}
            {...aria('url', privateAddress(url) ? 'url-private' : undefined)}
          />
        </label>
      )}
      {kind === 'url' && privateAddress(url) && (
        <p id="url-private" class="warning">
          This is a private address: the hub refuses to deliver to it unless its operator allows that network, so every
          delivery may fail.
        </p>
      )}
      {kind === 'job' && (
        <>
          <JobFieldsSet value={job} onChange={setJob} secretNames={heldSecrets} invalid={invalid} errorId={ERROR_ID} />
          {heldSecrets.length > 0 && (
            <label class="inline">
              <input type="checkbox" checked={dropSecrets} onChange={(e) => setDropSecrets(e.currentTarget.checked)} />{' '}
              Remove the job's secrets
            </label>
          )}
        </>
      )}
      {kind === 'copy' && (
        <SourceJob value={sourceId} onChange={setSourceId} aria={aria('jobSourceId', 'source-help')} />
      )}
      <label>
        Watched items
        <input
          required
          value={watched}
          placeholder="model:owner/name, user:name"
          {...aria('watched', 'watched-help')}
          onInput={(e) => setWatched(e.currentTarget.value)}
        />
      </label>
      <small id="watched-help">type:name, comma separated (types: model, dataset, space, user, org)</small>
      <fieldset>
        <legend>Domains</legend>
        {['repo', 'discussion'].map((d) => (
          <label key={d} class="inline">
            <input type="checkbox" checked={domains.includes(d)} onChange={() => toggle(d)} /> {d}
          </label>
        ))}
      </fieldset>
      <label>
        Secret {w?.hasSecret ? '(set; type a new one to replace it)' : '(optional)'}
        <input
          type="password"
          autoComplete="new-password"
          value={secret}
          onInput={(e) => setSecret(e.currentTarget.value)}
          {...aria('secret')}
        />
      </label>
      <button type="submit" disabled={action.busy}>
        {w ? 'Save webhook' : 'Create webhook'}
      </button>
      <Status id={ERROR_ID} error={action.error} message={action.message} />
    </form>
  );
}

/** The job to copy on each trigger: its id, with the caller's recent jobs offered. */
function SourceJob(props: { value: string; onChange: (id: string) => void; aria: FieldError }): preact.JSX.Element {
  const namespaces = useNamespaces();
  const jobs = useLoad(
    async () => (await Promise.all(namespaces.map((ns) => api<Job[]>('GET', `/api/jobs/${ns}`)))).flat(),
    [namespaces.join(',')],
  );
  return (
    <>
      <label>
        Source job id
        <input
          required
          list="source-jobs"
          value={props.value}
          {...props.aria}
          onInput={(e) => props.onChange(e.currentTarget.value)}
        />
      </label>
      <small id="source-help">
        each trigger runs a copy of this job as it is then (its secrets are not copied: give the job instead)
      </small>
      <datalist id="source-jobs">
        {jobs.data?.map((j) => (
          <option key={j.id} value={j.id}>
            {`${j.owner.name}: ${j.dockerImage ?? j.spaceId ?? ''} ${j.command?.join(' ') ?? ''}`}
          </option>
        ))}
      </datalist>
    </>
  );
}

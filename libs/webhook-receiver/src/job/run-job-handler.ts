import { REPO_TYPES, type RepoType, type WebhookPayload } from '../payload/webhook-payload.types';
import { validateWebhookPayload } from '../payload/webhook-payload.validator';

/** What a job webhook's environment says about the delivery (architecture section 6). */
export interface WebhookJobContext {
  /** `WEBHOOK_REPO_ID` (`owner/name`), else the payload's `repo.name`. */
  repoId: string;
  /** `WEBHOOK_REPO_TYPE`, else the payload's `repo.type`. */
  repoType: RepoType;
  /** `WEBHOOK_SECRET`, when the webhook has one (e.g. to authenticate calls back). */
  secret?: string;
}

export type WebhookJobHandlerFn = (payload: WebhookPayload, context: WebhookJobContext) => unknown;

export interface RunJobHandlerOptions {
  env?: NodeJS.ProcessEnv;
  /** Defaults to flushing stdout/stderr, then `process.exit(code)`. */
  exit?: (code: number) => void;
  stdout?: (text: string) => void;
  stderr?: (text: string) => void;
}

/** Exit codes: 0 handled, 1 the handler threw, 2 no usable payload (a bad delivery, not a bug). */
export const JOB_EXIT = { ok: 0, handlerFailed: 1, badPayload: 2 } as const;

/**
 * Entry point of a job started by a webhook: reads `WEBHOOK_PAYLOAD`, validates it, runs the
 * handler, prints its JSON result (if any) on stdout and exits.
 *
 * It exits explicitly rather than waiting for the event loop to drain: a handler that leaves
 * a pool or a timer open would otherwise keep a billed job running until its timeout.
 */
export async function runJobHandler(handler: WebhookJobHandlerFn, options: RunJobHandlerOptions = {}): Promise<number> {
  const env = options.env ?? process.env;
  const out = options.stdout ?? ((text: string) => process.stdout.write(text));
  const err = options.stderr ?? ((text: string) => process.stderr.write(text));
  const exit = options.exit ?? flushAndExit;

  const loaded = loadPayload(env['WEBHOOK_PAYLOAD']);
  if (!loaded.ok) {
    err(`${loaded.error}\n`);
    exit(JOB_EXIT.badPayload);
    return JOB_EXIT.badPayload;
  }
  const { payload } = loaded;
  const envType = env['WEBHOOK_REPO_TYPE'];
  const context: WebhookJobContext = {
    repoId: env['WEBHOOK_REPO_ID'] || payload.repo.name || payload.repo.id || '',
    repoType: isRepoType(envType) ? envType : payload.repo.type,
    secret: env['WEBHOOK_SECRET'] || undefined,
  };
  let code: number = JOB_EXIT.ok;
  try {
    const result = await handler(payload, context);
    if (result !== undefined) out(`${JSON.stringify(result)}\n`);
  } catch (error) {
    err(`Webhook job handler failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    code = JOB_EXIT.handlerFailed;
  }
  exit(code);
  return code;
}

function loadPayload(raw: string | undefined): { ok: true; payload: WebhookPayload } | { ok: false; error: string } {
  if (!raw) {
    return {
      ok: false,
      error:
        'WEBHOOK_PAYLOAD is not set: this script expects to run as a webhook job, with the delivery payload in that variable.',
    };
  }
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (error) {
    return {
      ok: false,
      error: `WEBHOOK_PAYLOAD is not valid JSON: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
  const validation = validateWebhookPayload(value);
  return validation.ok
    ? validation
    : { ok: false, error: `WEBHOOK_PAYLOAD is not a webhook payload: ${validation.error}` };
}

function isRepoType(value: string | undefined): value is RepoType {
  return (REPO_TYPES as readonly (string | undefined)[]).includes(value);
}

/** Writes to pipes may still be queued; exit only once both streams have flushed. */
function flushAndExit(code: number): void {
  process.stdout.write('', () => process.stderr.write('', () => process.exit(code)));
}

import { verdict } from './run-verdict';

const first = { attempt: 1, attempts: 1, failures: 0, retriesItself: false, timeoutSeconds: 30 };

describe('verdict: what a run’s end means for its job', () => {
  it('exit 0 completes it; a failed run ends it ERROR saying why, or retries it while attempts are left', () => {
    expect(verdict({ code: 0, signal: null }, first)).toEqual({
      kind: 'end',
      stage: 'COMPLETED',
      message: null,
      failures: 0,
    });
    expect(verdict({ code: 3, signal: null }, first)).toEqual({
      kind: 'end',
      stage: 'ERROR',
      message: 'Job failed: exited with code 3',
      failures: 1,
    });
    expect(verdict({ code: null, signal: 'SIGKILL', reason: 'out of memory' }, { ...first, attempts: 3 })).toEqual({
      kind: 'retry',
      message: 'attempt 1 out of memory; retrying',
      failures: 1,
    });
    expect(
      verdict({ code: null, signal: null, error: 'no such image' }, { ...first, attempt: 3, attempts: 3, failures: 2 }),
    ).toEqual({
      kind: 'end',
      stage: 'ERROR',
      message: 'Job failed: could not start: no such image',
      failures: 3,
    });
  });

  it('a stop of our own wins over the exit: cancel leaves the stored CANCELED, timeout and shutdown end it ERROR', () => {
    const killed = { code: null, signal: 'SIGKILL' as const };
    expect(verdict(killed, { ...first, stopping: 'cancel' })).toEqual({ kind: 'left' });
    expect(verdict(killed, { ...first, stopping: 'timeout' })).toMatchObject({
      stage: 'ERROR',
      message: 'Job timed out after 30 seconds',
    });
    expect(verdict(killed, { ...first, stopping: 'shutdown', attempts: 3 })).toMatchObject({
      stage: 'ERROR',
      failures: 1,
    });
  });

  it('a runner retrying by itself: its failures are counted from the exit, and its end is the job’s', () => {
    const k8s = { ...first, attempts: 3, retriesItself: true };
    expect(verdict({ code: 0, signal: null, failures: 2 }, k8s)).toMatchObject({ stage: 'COMPLETED', failures: 2 });
    expect(verdict({ code: 1, signal: null, failures: 3 }, k8s)).toMatchObject({ stage: 'ERROR', failures: 3 });
    expect(verdict({ code: null, signal: null, timedOut: true }, k8s)).toMatchObject({
      stage: 'ERROR',
      message: 'Job timed out after 30 seconds',
      failures: 1,
    });
  });
});

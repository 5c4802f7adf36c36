import { type ArgumentsHost } from '@nestjs/common';
import { UnauthorizedError } from '@hub/contracts';
import { InvalidCredentialsError } from '@hub/credentials-contract';
import { HttpErrorFilter } from '../http/http-error.filter';
import { TooManyRequestsError } from '../rate-limit/rate-limit.errors';
import { NotAMemberError, PlanRequiredError, ReadOnlyTokenError } from './auth.errors';

/** The HTTP answer the error filter gives for a thrown error: status, header and body. */
function answerFor(error: unknown): { status: number; headers: Record<string, string>; body: unknown } {
  const out = { status: 0, headers: {} as Record<string, string>, body: undefined as unknown };
  const reply = {
    status(s: number) {
      out.status = s;
      return reply;
    },
    header(k: string, v: string) {
      out.headers[k] = v;
      return reply;
    },
    send(b: unknown) {
      out.body = b;
      return reply;
    },
  };
  const host = {
    switchToHttp: () => ({ getResponse: () => reply, getRequest: () => ({ hubRequestId: 'r1', url: '/x' }) }),
  };
  new HttpErrorFilter().catch(error, host as unknown as ArgumentsHost);
  return out;
}

describe('gateway error classes keep their code, status and message', () => {
  it.each([
    [
      new ReadOnlyTokenError(),
      'READ_ONLY_TOKEN',
      403,
      'This token has the read role and cannot change anything; use a write token',
    ],
    [new NotAMemberError('acme'), 'NOT_A_MEMBER', 403, 'You are not a member of the organization acme'],
    [
      new PlanRequiredError('acme', 'Enterprise', 'Team'),
      'PLAN_REQUIRED',
      403,
      'This operation needs the Enterprise plan or higher; acme is on the Team plan',
    ],
    [new InvalidCredentialsError(), 'UNAUTHORIZED', 401, 'Invalid credentials in Authorization header'],
    [new TooManyRequestsError(3, 60, 12), 'RATE_LIMITED', 429, 'Too many requests: at most 3 per 60 s; retry in 12 s'],
  ])('%s', (error, code, status, message) => {
    expect(error.toEnvelope()).toEqual({ code, status, message });
    expect(answerFor(error)).toEqual({
      status,
      headers: expect.objectContaining({ 'X-Error-Message': message }),
      body: { error: message },
    });
  });

  it('the shared invalid-token error is the default 401 the clients know', () => {
    expect(new InvalidCredentialsError().toEnvelope()).toEqual(new UnauthorizedError().toEnvelope());
  });
});

import { HubError } from '@hub/contracts';
import { SCIM_CONTENT_TYPE, SCIM_SCHEMAS, SCIM_TYPES_BY_CODE } from '@hub/organizations-contract';
import { type Answer } from './error-answer';

/** SCIM endpoints answer their errors in RFC 7644 3.12's shape, whatever raised them (decision 0420). */
export const SCIM_PATH = /^\/api\/organizations\/[^/?]+\/scim\/v2(?:[/?]|$)/;

export function isScimRequest(url: string): boolean {
  return SCIM_PATH.test(url);
}

/** The scimType of a failure: from the error's code, else by what an edge 400 is (bad JSON, a bad parameter). */
function scimTypeOf(exception: unknown, answer: Answer): string | undefined {
  if (exception instanceof HubError)
    return SCIM_TYPES_BY_CODE[exception.code] ?? (answer.status === 400 ? 'invalidValue' : undefined);
  if (answer.status !== 400) return undefined;
  return /JSON/.test(answer.message) ? 'invalidSyntax' : 'invalidValue';
}

export function scimErrorBody(
  exception: unknown,
  answer: Answer,
): { contentType: string; body: Record<string, unknown> } {
  const scimType = scimTypeOf(exception, answer);
  return {
    contentType: `${SCIM_CONTENT_TYPE}; charset=utf-8`,
    body: {
      schemas: [SCIM_SCHEMAS.Error],
      status: String(answer.status),
      ...(scimType ? { scimType } : {}),
      detail: answer.message,
    },
  };
}

import { scimEtagMatches, ScimPreconditionFailedError } from '@hub/organizations-contract';

/** RFC 7644 3.14: a change with If-Match applies only to that version; called on the locked row, before anything is written. */
export function checkIfMatch(ifMatch: string | undefined, version: number, kind: string): void {
  if (ifMatch === undefined || ifMatch.trim() === '') return;
  if (!scimEtagMatches(ifMatch, version)) throw new ScimPreconditionFailedError(kind, `W/"${version}"`);
}

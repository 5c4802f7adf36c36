import { BadRequestError } from '@hub/contracts';

/** A session is made from exactly one of a user token (its hash) and the admin token (its fingerprint). */
export class SessionSourceError extends BadRequestError {
  constructor() {
    super('exactly one of tokenHash and adminFingerprint is required', 'SESSION_SOURCE');
  }
}

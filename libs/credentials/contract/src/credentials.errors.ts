import { UnauthorizedError } from '@hub/contracts';

/**
 * A bearer token that is unknown, revoked or malformed. Thrown by credentials (token.verify) and
 * by the gateway before it asks (an over-long token), so it lives in the contract both share.
 */
export class InvalidCredentialsError extends UnauthorizedError {
  constructor() {
    super('Invalid credentials in Authorization header', 'UNAUTHORIZED');
  }
}

import { BadRequestError } from '@hub/contracts';

export class TooManyWatchedError extends BadRequestError {
  constructor(max: number) {
    super(`A user watches at most ${max} items`, 'WATCH_LIMIT');
  }
}

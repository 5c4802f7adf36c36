import { BadRequestError } from '@hub/contracts';

/** A payload a consumer of its subject would refuse (its descriptor's class says why). */
export class EventPayloadRefusedError extends BadRequestError {
  constructor(subject: string, reason: string) {
    super(`payload does not fit ${subject}: ${reason}`);
  }
}

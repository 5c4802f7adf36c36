import { ScimUniquenessError } from '@hub/organizations-contract';

export class ScimUserNameTakenError extends ScimUniquenessError {
  constructor(userName: string) {
    super(
      `A user with userName ${userName} is already provisioned in this organization (userName is case-insensitive)`,
    );
  }
}

/** The operator's link of a hub user already provisioned here, or under a userName another holds. */
export class ScimUserAlreadyLinkedError extends ScimUniquenessError {
  constructor(hubName: string) {
    super(`${hubName} is already provisioned in this organization, or the userName is taken`);
  }
}

/** A rename that lost a race to another user of the organization for the same userName. */
export class ScimUserNameRaceError extends ScimUniquenessError {
  constructor() {
    super('Another user of this organization took that userName meanwhile');
  }
}

import { ConflictError } from '@hub/contracts';

export class ScimGroupNotLinkableError extends ConflictError {
  constructor(name: string) {
    super(
      `Resource group ${name} has users or auto-join on: empty it and turn auto-join off before an identity provider manages it`,
      'SCIM_GROUP_NOT_LINKABLE',
    );
  }
}

import { NotFoundError } from '@hub/contracts';

export class ResourceGroupNotFoundError extends NotFoundError {
  constructor(organization: string, id: string) {
    super(`Resource group ${id} not found in organization ${organization}`, 'RESOURCE_GROUP_NOT_FOUND');
  }
}

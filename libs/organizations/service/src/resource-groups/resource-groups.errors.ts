import { ConflictError, NotFoundError } from '@hub/contracts';

export class ResourceGroupNotFoundError extends NotFoundError {
  constructor(organization: string, id: string) {
    super(`Resource group ${id} not found in organization ${organization}`, 'RESOURCE_GROUP_NOT_FOUND');
  }
}

export class ResourceGroupUserNotFoundError extends NotFoundError {
  constructor(id: string, userId: string) {
    super(`User ${userId} is not in resource group ${id}`, 'RESOURCE_GROUP_USER_NOT_FOUND');
  }
}

export class ScimManagedGroupError extends ConflictError {
  constructor(id: string) {
    super(
      `Resource group ${id} is managed by SCIM provisioning: change its users in the identity provider`,
      'RESOURCE_GROUP_SCIM_MANAGED',
    );
  }
}

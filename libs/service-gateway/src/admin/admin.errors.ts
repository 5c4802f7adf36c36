import { HubError } from '@hub/contracts';

/** /admin/repos is declared (hubctl knows it) before the repository catalogue exists. */
export class RepoCatalogueUnavailableError extends HubError {
  constructor() {
    super('NOT_IMPLEMENTED', 501, 'The repository catalogue is not available yet: it arrives with repository storage usage');
  }
}

import { CreateOrganizations1763830100000 } from './1763830100000-create-organizations';
import { CreateOrganizationsOutbox1763900200000 } from './1763900200000-create-outbox';

/** In order. Never edit one that has landed; add a new one (style.md rule 7). */
export const ORGANIZATIONS_MIGRATIONS = [CreateOrganizations1763830100000, CreateOrganizationsOutbox1763900200000];

import { CreateCredentials1763830000000 } from './1763830000000-create-credentials';

/** In order. Never edit one that has landed; add a new one (style.md rule 7). */
export const CREDENTIALS_MIGRATIONS = [CreateCredentials1763830000000];

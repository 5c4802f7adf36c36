import { CreateCredentials1763830000000 } from './1763830000000-create-credentials';
import { SharedNamesUniqueEmails1763900000000 } from './1763900000000-shared-names-unique-emails';
import { CreateCredentialsOutbox1763900100000 } from './1763900100000-create-outbox';
import { ManagedAccounts1795700000000 } from './1795700000000-managed-accounts';
import { ConsoleSessions1796000000000 } from './1796000000000-console-sessions';

/** In order. Never edit one that has landed; add a new one (style.md rule 7). */
export const CREDENTIALS_MIGRATIONS = [
  CreateCredentials1763830000000,
  SharedNamesUniqueEmails1763900000000,
  CreateCredentialsOutbox1763900100000,
  ManagedAccounts1795700000000,
  ConsoleSessions1796000000000,
];

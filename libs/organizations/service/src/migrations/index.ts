import { CreateOrganizations1763830100000 } from './1763830100000-create-organizations';
import { OrganizationNamesCaseInsensitive1763900100000 } from './1763900100000-organization-names-case-insensitive';
import { CreateOrganizationsOutbox1763900200000 } from './1763900200000-create-outbox';
import { CreateRepositories1764000100000 } from './1764000100000-create-repositories';
import { CreateAuditEvents1764000200000 } from './1764000200000-create-audit-events';
import { CreateResourceGroups1764000300000 } from './1764000300000-create-resource-groups';
import { CreatePapers1764000400000 } from './1764000400000-create-papers';
import { CreateMcpSettings1764000500000 } from './1764000500000-create-mcp-settings';
import { CreateScim1764100100000 } from './1764100100000-create-scim';
import { AuditFilterIndexes1764200100000 } from './1764200100000-audit-filter-indexes';
import { ScimManagedAccounts1795700100000 } from './1795700100000-scim-managed-accounts';
import { ScimDeprovisioned1795800100000 } from './1795800100000-scim-deprovisioned';
import { CreateAuditStreams1796000100000 } from './1796000100000-create-audit-streams';
import { PartitionAuditEvents1797000100000 } from './1797000100000-partition-audit-events';

/** In order. Never edit one that has landed; add a new one (style.md rule 7). */
export const ORGANIZATIONS_MIGRATIONS = [
  CreateOrganizations1763830100000,
  OrganizationNamesCaseInsensitive1763900100000,
  CreateOrganizationsOutbox1763900200000,
  CreateRepositories1764000100000,
  CreateAuditEvents1764000200000,
  CreateResourceGroups1764000300000,
  CreatePapers1764000400000,
  CreateMcpSettings1764000500000,
  CreateScim1764100100000,
  AuditFilterIndexes1764200100000,
  ScimManagedAccounts1795700100000,
  ScimDeprovisioned1795800100000,
  CreateAuditStreams1796000100000,
  PartitionAuditEvents1797000100000,
];

import 'reflect-metadata';
import { runService } from '@hub/observability';
import { OrganizationsConfig, OrganizationsModule, organizationsPersistence } from '@hub/organizations-service';

runService({
  name: 'organizations',
  config: OrganizationsConfig,
  module: (config) => OrganizationsModule.forRoot(config),
  persistence: organizationsPersistence,
}).catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});

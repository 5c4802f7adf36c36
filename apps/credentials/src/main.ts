import 'reflect-metadata';
import { runService } from '@hub/observability';
import { CredentialsConfig, CredentialsModule, credentialsPersistence } from '@hub/credentials-service';

runService({
  name: 'credentials',
  config: CredentialsConfig,
  module: (config) => CredentialsModule.forRoot(config),
  persistence: credentialsPersistence,
}).catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});

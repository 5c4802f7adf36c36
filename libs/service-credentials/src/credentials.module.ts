import { type DynamicModule, Module } from '@nestjs/common';
import { persistenceOptions, ServicePersistenceModule, type ServicePersistenceOptions } from '@hub/persistence';
import { type CredentialsConfig } from './credentials.config';
import { CredentialsHandler } from './credentials.handler';
import { CREDENTIALS_CONFIG, CREDENTIALS_DS } from './credentials.tokens';
import { CREDENTIALS_ENTITIES } from './entities';
import { OutboxMailer } from './mail/outbox-mailer';
import { CREDENTIALS_MIGRATIONS } from './migrations';
import { CreateTokenUseCase } from './use-cases/create-token.use-case';
import { CreateUserUseCase } from './use-cases/create-user.use-case';
import { FindTokenUseCase } from './use-cases/find-token.use-case';
import { GetUserUseCase } from './use-cases/get-user.use-case';
import { RevokeLeakedTokensUseCase } from './use-cases/revoke-leaked-tokens.use-case';
import { RevokeTokenForOrgUseCase } from './use-cases/revoke-token-for-org.use-case';
import { VerifyTokenUseCase } from './use-cases/verify-token.use-case';

export const CREDENTIALS_SCHEMA = 'credentials';

export function credentialsPersistence(config: CredentialsConfig): ServicePersistenceOptions {
  return persistenceOptions({ name: CREDENTIALS_DS, schema: CREDENTIALS_SCHEMA, entities: CREDENTIALS_ENTITIES, migrations: CREDENTIALS_MIGRATIONS }, config);
}

/** Users, access tokens, org-scoped token revocations and the e-mail outbox. */
@Module({})
export class CredentialsModule {
  static forRoot(config: CredentialsConfig): DynamicModule {
    return {
      module: CredentialsModule,
      imports: [
        ServicePersistenceModule.forService(credentialsPersistence(config)),
      ],
      controllers: [CredentialsHandler],
      providers: [
        { provide: CREDENTIALS_CONFIG, useValue: config },
        OutboxMailer,
        CreateUserUseCase,
        GetUserUseCase,
        CreateTokenUseCase,
        VerifyTokenUseCase,
        FindTokenUseCase,
        RevokeLeakedTokensUseCase,
        RevokeTokenForOrgUseCase,
      ],
    };
  }
}

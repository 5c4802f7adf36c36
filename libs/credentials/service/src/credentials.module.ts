import { type DynamicModule, Module } from '@nestjs/common';
import { OutboxModule } from '@hub/messaging';
import { persistenceOptions, ServicePersistenceModule, type ServicePersistenceOptions } from '@hub/persistence';
import { type CredentialsConfig } from './credentials.config';
import { CREDENTIALS_CONFIG, CREDENTIALS_DS } from './credentials.di';
import { CREDENTIALS_ENTITIES } from './credentials.entities';
import { OutboxMailer } from './mail/outbox-mailer';
import { CREDENTIALS_MIGRATIONS } from './migrations';
import { ReleaseNameUseCase } from './names/release-name.use-case';
import { ReserveNameUseCase } from './names/reserve-name.use-case';
import { CreateSessionUseCase } from './sessions/create-session.use-case';
import { EndSessionUseCase } from './sessions/end-session.use-case';
import { VerifySessionUseCase } from './sessions/verify-session.use-case';
import { CreateTokenUseCase } from './tokens/create-token.use-case';
import { CreateUserUseCase } from './users/create-user.use-case';
import { GetUserUseCase } from './users/get-user.use-case';
import { ListUsersUseCase } from './users/list-users.use-case';
import { ListUserTokensUseCase } from './tokens/list-user-tokens.use-case';
import { ProvisionUserUseCase } from './users/provision-user.use-case';
import { RevokeMemberTokenUseCase } from './tokens/revoke-member-token.use-case';
import { RevokeLeakedTokensUseCase } from './tokens/revoke-leaked-tokens.use-case';
import { RevokeTokenByIdUseCase } from './tokens/revoke-token-by-id.use-case';
import { RevokeTokenForOrgUseCase } from './tokens/revoke-token-for-org.use-case';
import { VerifyTokenUseCase } from './tokens/verify-token.use-case';

export const CREDENTIALS_SCHEMA = 'credentials';

export function credentialsPersistence(config: CredentialsConfig): ServicePersistenceOptions {
  return persistenceOptions(
    {
      name: CREDENTIALS_DS,
      schema: CREDENTIALS_SCHEMA,
      entities: CREDENTIALS_ENTITIES,
      migrations: CREDENTIALS_MIGRATIONS,
    },
    config,
  );
}

/**
 * Users, access tokens, org-scoped token revocations, console sessions, names and the e-mail outbox.
 * Each use case serves its RPC itself (`@RpcHandler` on `execute`, decision 0002): no handler files.
 */
@Module({})
export class CredentialsModule {
  static forRoot(config: CredentialsConfig): DynamicModule {
    return {
      module: CredentialsModule,
      imports: [
        ServicePersistenceModule.forService(credentialsPersistence(config)),
        OutboxModule.forService({ dataSource: CREDENTIALS_DS, schema: CREDENTIALS_SCHEMA }),
      ],
      providers: [
        { provide: CREDENTIALS_CONFIG, useValue: config },
        OutboxMailer,
        CreateUserUseCase,
        GetUserUseCase,
        ListUsersUseCase,
        ProvisionUserUseCase,
        CreateTokenUseCase,
        VerifyTokenUseCase,
        ListUserTokensUseCase,
        RevokeLeakedTokensUseCase,
        RevokeTokenForOrgUseCase,
        RevokeMemberTokenUseCase,
        RevokeTokenByIdUseCase,
        ReserveNameUseCase,
        ReleaseNameUseCase,
        CreateSessionUseCase,
        VerifySessionUseCase,
        EndSessionUseCase,
      ],
    };
  }
}

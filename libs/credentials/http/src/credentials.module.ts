import { Module } from '@nestjs/common';
import { ConsoleSessionController } from './console-session.controller';
import { LeakedTokensController } from './leaked-tokens.controller';
import { OrgTokensController } from './org-tokens.controller';
import { WhoAmIController } from './whoami.controller';
import { AdminUsersController } from './admin-users.controller';

/**
 * whoami, leaked-token revocation and organization token revocation (spec 4.2), and the web
 * console's session: a cookie that stands for a token (decision 0800); the admin API's users and tokens.
 */
@Module({
  controllers: [
    WhoAmIController,
    LeakedTokensController,
    OrgTokensController,
    ConsoleSessionController,
    AdminUsersController,
  ],
})
export class CredentialsApiModule {}

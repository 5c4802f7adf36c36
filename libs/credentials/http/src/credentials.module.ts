import { Module } from '@nestjs/common';
import { LeakedTokensController } from './leaked-tokens.controller';
import { OrgTokensController } from './org-tokens.controller';
import { WhoAmIController } from './whoami.controller';

/** whoami, leaked-token revocation and organization token revocation (spec 4.2). */
@Module({ controllers: [WhoAmIController, LeakedTokensController, OrgTokensController] })
export class CredentialsApiModule {}

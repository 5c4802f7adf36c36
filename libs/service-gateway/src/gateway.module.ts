import { type DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_PIPE } from '@nestjs/core';
import { AdminBusController } from './admin/admin-bus.controller';
import { AdminOrganizationsController } from './admin/admin-organizations.controller';
import { AdminUsersController } from './admin/admin-users.controller';
import { CredentialsController } from './api/credentials.controller';
import { OrgTokensController } from './api/org-tokens.controller';
import { OrganizationsController } from './api/organizations.controller';
import { WhoAmIController } from './api/whoami.controller';
import { AuthGuard } from './auth/auth.guard';
import { OrgAccessGuard } from './auth/org-access.guard';
import { MembershipCache } from './auth/membership-cache';
import { MembershipDirectory } from './auth/membership-directory';
import { TokenCache } from './auth/token-cache';
import { type GatewayConfig } from './gateway.config';
import { GATEWAY_CONFIG } from './gateway.tokens';
import { HttpErrorFilter } from './http/http-error.filter';
import { HubValidationPipe } from './http/validation.pipe';
import { RateLimitGuard } from './rate-limit/rate-limit.guard';

/**
 * The HTTP edge: owns no tables, reaches services only through the RPC client. Guards run in
 * this order: authentication, rate limit, organization access.
 */
@Module({})
export class GatewayModule {
  static forRoot(config: GatewayConfig): DynamicModule {
    return {
      module: GatewayModule,
      controllers: [
        WhoAmIController,
        CredentialsController,
        OrgTokensController,
        OrganizationsController,
        AdminUsersController,
        AdminOrganizationsController,
        AdminBusController,
      ],
      providers: [
        { provide: GATEWAY_CONFIG, useValue: config },
        { provide: TokenCache, useValue: new TokenCache(config.HUB_AUTH_CACHE_TTL_MS, config.HUB_AUTH_CACHE_SIZE) },
        { provide: MembershipCache, useValue: new MembershipCache(config.HUB_AUTH_CACHE_TTL_MS, config.HUB_AUTH_CACHE_SIZE) },
        MembershipDirectory,
        { provide: APP_GUARD, useClass: AuthGuard },
        { provide: APP_GUARD, useClass: RateLimitGuard },
        { provide: APP_GUARD, useClass: OrgAccessGuard },
        { provide: APP_FILTER, useClass: HttpErrorFilter },
        { provide: APP_PIPE, useClass: HubValidationPipe },
      ],
    };
  }
}

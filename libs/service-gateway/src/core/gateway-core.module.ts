import { type DynamicModule, Global, Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_PIPE } from '@nestjs/core';
import { Authenticator } from './auth/authenticator';
import { EdgeGuard } from './auth/edge.guard';
import { LiveAnswers } from './auth/live-answers';
import { MembershipCache } from './auth/membership-cache';
import { MembershipDirectory } from './auth/membership-directory';
import { OrgAccess } from './auth/org-access';
import { TokenCache } from './auth/token-cache';
import { type GatewayConfig } from './gateway.config';
import { GATEWAY_CONFIG } from './gateway.di';
import { HttpErrorFilter } from './http/http-error.filter';
import { StreamSlots } from './http/stream-slots';
import { HubValidationPipe } from './http/validation.pipe';
import { RateLimits } from './rate-limit/rate-limits';

/**
 * The shared edge, global so every area module can inject its caches and config. One global
 * guard (EdgeGuard) checks, in this order: authentication, rate limit, organization access.
 */
@Global()
@Module({})
export class GatewayCoreModule {
  static forRoot(config: GatewayConfig): DynamicModule {
    const shared = [
      { provide: GATEWAY_CONFIG, useValue: config },
      { provide: TokenCache, useValue: new TokenCache(config.HUB_AUTH_CACHE_TTL_MS, config.HUB_AUTH_CACHE_SIZE) },
      {
        provide: MembershipCache,
        useValue: new MembershipCache(config.HUB_AUTH_CACHE_TTL_MS, config.HUB_AUTH_CACHE_SIZE),
      },
      { provide: LiveAnswers, useValue: new LiveAnswers() },
      {
        provide: StreamSlots,
        useValue: new StreamSlots(config.HUB_STREAMS_MAX_PER_USER, config.HUB_STREAMS_MAX_PER_TOKEN),
      },
      MembershipDirectory,
    ];
    return {
      module: GatewayCoreModule,
      providers: [
        ...shared,
        Authenticator,
        RateLimits,
        OrgAccess,
        EdgeGuard,
        HttpErrorFilter,
        HubValidationPipe,
        { provide: APP_GUARD, useExisting: EdgeGuard },
        { provide: APP_FILTER, useExisting: HttpErrorFilter },
        { provide: APP_PIPE, useExisting: HubValidationPipe },
      ],
      exports: [...shared.map((p) => ('provide' in p ? p.provide : p)), Authenticator],
    };
  }
}

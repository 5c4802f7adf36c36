import { type ExecutionContext, type Type } from '@nestjs/common';
import { type Reflector } from '@nestjs/core';
import { ADMIN_ROUTE, ORG_SCOPED, type OrgScopeRequirement, PUBLIC_ROUTE, STRICT_RATE_LIMIT } from './auth.decorators';

/** What a route's decorators ask of the edge, read once per handler. */
export interface RouteRules {
  /** @AdminOnly: bearer HUB_ADMIN_TOKEN instead of a user token. */
  readonly admin: boolean;
  /** @Public: no token needed. */
  readonly public: boolean;
  /** @StrictRateLimit: the stricter per-address limit. */
  readonly strictRateLimit: boolean;
  /** @OrgScoped: membership, role and plan in the organization of `:name`. */
  readonly org: OrgScopeRequirement | undefined;
}

/** Route rules by handler: decorators are fixed once the app is built, so each is read once. */
export class RouteRulesCache {
  private readonly byHandler = new WeakMap<object, RouteRules>();

  constructor(private readonly reflector: Reflector) {}

  of(context: ExecutionContext): RouteRules {
    return this.for(context.getHandler() as (...args: never[]) => unknown, context.getClass());
  }

  for(handler: (...args: never[]) => unknown, controller: Type): RouteRules {
    let rules = this.byHandler.get(handler);
    if (!rules) {
      const targets = [handler, controller];
      rules = {
        admin: this.reflector.getAllAndOverride<boolean>(ADMIN_ROUTE, targets) === true,
        public: this.reflector.getAllAndOverride<boolean>(PUBLIC_ROUTE, targets) === true,
        strictRateLimit: this.reflector.get<boolean | undefined>(STRICT_RATE_LIMIT, handler) === true,
        org: this.reflector.get<OrgScopeRequirement | undefined>(ORG_SCOPED, handler),
      };
      this.byHandler.set(handler, rules);
    }
    return rules;
  }
}

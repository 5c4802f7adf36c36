import { type DynamicModule, Module, type Type } from '@nestjs/common';
import { ConsoleApiModule } from './console/console.module';
import { type GatewayConfig } from './core/gateway.config';
import { GatewayCoreModule } from './core/gateway-core.module';

/**
 * The HTTP edge: owns no tables, reaches services only through the RPC client. The areas not yet
 * in a feature folder have one folder and one module here; a feature's `http` tier
 * (`libs/<feature>/http`, decision 0019) is given by the app that composes it.
 */
const AREAS = [ConsoleApiModule];

@Module({})
export class GatewayModule {
  /** `features`: the `http` modules of the feature folders, e.g. `CredentialsApiModule`. */
  static forRoot(config: GatewayConfig, features: readonly Type[] = []): DynamicModule {
    return { module: GatewayModule, imports: [GatewayCoreModule.forRoot(config), ...features, ...AREAS] };
  }
}

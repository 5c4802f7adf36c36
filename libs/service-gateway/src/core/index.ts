// The shared edge every area module builds on: auth, org access, rate limits, params, config.
export * from './gateway-core.module';
export * from './gateway.config';
export * from './gateway.tokens';
export * from './create-gateway-app';
export * from './auth/auth.decorators';
export { Authenticator } from './auth/authenticator';
export { ReadOnlyTokenError } from './auth/auth.errors';
export { CSRF_HEADER } from './auth/console-session';
export * from './auth/live-answers';
export * from './http/stream-slots';
export * from './auth/membership-cache';
export * from './auth/membership-directory';
export * from './auth/token-cache';
export * from './http/params';
export * from './http/request-context';
export * from './openapi/openapi';
export * from './openapi/api-error-response';
export * from './http/next-link';

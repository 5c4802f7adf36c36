export * from './gateway.module';
// The shared edge every feature's `http` tier builds on: auth, org access, rate limits, params, OpenAPI.
export * from './core';
export { installRequestErrorBackstop } from './core/http/request-error-backstop';

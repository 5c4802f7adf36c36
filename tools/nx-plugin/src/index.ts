export { serviceFeatureGenerator } from './generators/service-feature/generator';
export type { ServiceFeatureOptions } from './generators/service-feature/schema';

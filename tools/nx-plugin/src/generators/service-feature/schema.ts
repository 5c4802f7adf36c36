export interface ServiceFeatureOptions {
  /** The feature folder libs/<service>/ (decision 0019); the old libs/service-<service> is refused. */
  service: string;
  /** The feature folder, plural kebab-case. */
  feature: string;
  verb: string;
  /** Singular kebab-case. */
  thing: string;
  /** The descriptor group in the feature's contract (`libs/<service>/contract/src/<service>.rpc.ts`); default `<Service>Rpc`. */
  rpcGroup?: string;
}

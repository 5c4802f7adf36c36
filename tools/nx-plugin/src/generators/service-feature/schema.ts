export interface ServiceFeatureOptions {
  /** libs/<service>/service (a feature folder) or libs/service-<service> */
  service: string;
  /** The feature folder, plural kebab-case. */
  feature: string;
  verb: string;
  /** Singular kebab-case. */
  thing: string;
  /** The descriptor group (in the feature's contract, or libs/contracts/src/<service>/<service>.rpc.ts); default `<Service>Rpc`. */
  rpcGroup?: string;
}

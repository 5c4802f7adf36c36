/** A JSON Schema from the hub's AsyncAPI document. */
export type JsonSchema = { [key: string]: unknown };

/**
 * One event (or family of events) of the hub's bus contract, generated from its AsyncAPI
 * document: where it travels and what its payload looks like. `T` is the payload's type.
 */
export interface EventDefinition<T> {
  /** The channel id in the AsyncAPI document (`audit`, `tokenRevoked`). */
  readonly name: string;
  /** `hub.audit.{type}`: the subject, with a family's suffix as a parameter. */
  readonly address: string;
  /** NATS filter without the bus prefix (`hub.audit.>`, or the subject itself). */
  readonly filter: string;
  /** JetStream stream that keeps it, without the bus prefix (`HUB_AUDIT`). */
  readonly stream: string;
  /** True when the subject ends in a suffix (`hub.audit.<type>`). */
  readonly family: boolean;
  readonly schema: JsonSchema;
  /** Type-only: the payload's type. Never set at run time. */
  readonly payload?: T;
}

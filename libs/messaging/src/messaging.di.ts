export const NATS_CONNECTION = Symbol('NATS_CONNECTION');
export const BUS_MODE = Symbol('BUS_MODE');

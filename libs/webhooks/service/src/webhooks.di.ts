export const WEBHOOKS_DS = 'webhooks';
export const WEBHOOKS_CONFIG = Symbol('WEBHOOKS_CONFIG');

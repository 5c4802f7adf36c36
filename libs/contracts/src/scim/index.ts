export * from './scim.constants';
export * from './scim.errors';
export * from './scim-rpc.dto';
export * from './scim.views';

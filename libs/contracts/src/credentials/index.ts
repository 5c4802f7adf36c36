export * from './revoke-credentials.dto';
export * from './credentials-rpc.dto';
export * from './credentials.views';
export * from './credentials.errors';
export * from './names-rpc.dto';
export * from './token-hash';
export * from './console-session.dto';

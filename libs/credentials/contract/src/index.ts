export * from './revoke-credentials.dto';
export * from './credentials-admin.views';
export * from './credentials.errors';
export * from './credentials.rpc';
export * from './names-rpc.dto';
export * from './token-hash';
export * from './console-session.dto';
export * from './admin.dto';

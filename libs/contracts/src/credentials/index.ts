export * from './revoke-credentials.dto';
export * from './credentials-rpc.dto';
export * from './credentials.views';

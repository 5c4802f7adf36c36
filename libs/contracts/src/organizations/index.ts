export * from './organizations-rpc.dto';
export * from './organizations.views';

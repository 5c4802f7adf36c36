export * from './organizations-rpc.dto';
export * from './organizations.views';
export * from './repositories.dto';
export * from './audit.dto';
export * from './resource-groups.dto';
export * from './papers.dto';
export * from './mcp.dto';

export * from './admin.dto';
export * from './admin-lists.dto';

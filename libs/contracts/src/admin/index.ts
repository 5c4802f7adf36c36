export * from './admin-lists.dto';

export * from './admin.dto';

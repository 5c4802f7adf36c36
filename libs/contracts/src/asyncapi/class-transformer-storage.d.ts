// class-transformer keeps `@Type` metadata in this module and exports no public reader for it.
declare module 'class-transformer/cjs/storage' {
  import { type MetadataStorage } from 'class-transformer/types/MetadataStorage';

  export const defaultMetadataStorage: MetadataStorage;
}

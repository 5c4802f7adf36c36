import { getMetadataStorage } from 'class-validator';

type Storage = ReturnType<typeof getMetadataStorage>;
type Lookup = Storage['getTargetValidationMetadatas'];
type ValidationMetadata = ReturnType<Lookup>[number];
type Grouped = Record<string, ValidationMetadata[]>;

const PATCHED = Symbol.for('hub.validation-metadata-cache');

/**
 * class-validator finds a class's rules anew on every validate(): it walks every class that has
 * rules (several hundred contracts here) testing `prototype instanceof` for inherited ones, then
 * groups the result by property. That lookup was 7 % of the gateway's and the hub's CPU on an
 * uncached read (bench:gateway profiles, decision 0300). Rules are declared by decorators when a
 * class is loaded, so the answer is kept per class and options until any rule is added. Patches
 * the one global storage class-validator keeps (shared by every copy of the package); idempotent.
 */
export function cacheValidationMetadata(): void {
  const storage = getMetadataStorage() as Storage & { [PATCHED]?: true };
  if (storage[PATCHED]) return;
  storage[PATCHED] = true;

  const lookup: Lookup = storage.getTargetValidationMetadatas.bind(storage);
  const group = storage.groupByPropertyName.bind(storage);
  const add = storage.addValidationMetadata.bind(storage);
  let lookups = new Map<unknown, Map<string, ValidationMetadata[]>>();
  let groups = new WeakMap<ValidationMetadata[], Grouped>();

  storage.addValidationMetadata = (metadata) => {
    lookups = new Map();
    groups = new WeakMap();
    add(metadata);
  };
  storage.getTargetValidationMetadatas = (target, schema, always, strictGroups, groupNames) => {
    const key = `${schema}|${always}|${strictGroups}|${groupNames?.join(',') ?? ''}`;
    let byKey = lookups.get(target);
    if (!byKey) lookups.set(target, (byKey = new Map()));
    let found = byKey.get(key);
    if (!found) byKey.set(key, (found = lookup(target, schema, always, strictGroups, groupNames)));
    return found;
  };
  // The executor only reads the grouping (it filters into new arrays), so one per lookup result.
  storage.groupByPropertyName = (metadata) => {
    let grouped = groups.get(metadata);
    if (!grouped) groups.set(metadata, (grouped = group(metadata)));
    return grouped;
  };
}

import { registerDecorator, type ValidationArguments } from 'class-validator';

/** An object of string values whose keys (and optionally values) match a pattern, with bounded size. */
export function IsStringMap(key: RegExp, value?: RegExp, maxEntries = 200, maxValueLength = 100): PropertyDecorator {
  return (target: object, property: string | symbol) => {
    registerDecorator({
      name: 'isStringMap',
      target: target.constructor,
      propertyName: String(property),
      validator: {
        validate(v: unknown): boolean {
          if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
          const entries = Object.entries(v as Record<string, unknown>);
          return entries.length <= maxEntries && entries.every(([k, s]) =>
            key.test(k) && typeof s === 'string' && s.length <= maxValueLength && (!value || value.test(s)));
        },
        defaultMessage(a: ValidationArguments): string {
          return `${a.property} must be an object of at most ${maxEntries} entries, keys matching ${key.source}, string values`
            + (value ? ` matching ${value.source}` : ` of at most ${maxValueLength} characters`);
        },
      },
    });
  };
}

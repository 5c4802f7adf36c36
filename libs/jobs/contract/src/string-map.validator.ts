import { registerDecorator, type ValidationArguments } from 'class-validator';

export interface StringMapRules {
  /** Every key matches this; `keyRule` says so in words (default: "match <pattern>"). */
  key: RegExp;
  keyRule?: string;
  /** Every value matches this, when given; `valueRule` says so in words. */
  value?: RegExp;
  valueRule?: string;
  maxEntries: number;
  maxValueLength: number;
}

/** The first thing wrong with `v` as a map of `rules`, named from the property (`environment key "1X" must …`); null when fine. */
function problem(property: string, v: unknown, rules: StringMapRules): string | null {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return `${property} must be an object`;
  const entries = Object.entries(v as Record<string, unknown>);
  if (entries.length > rules.maxEntries) return `${property} must hold at most ${rules.maxEntries} entries`;
  for (const [k, s] of entries) {
    if (!rules.key.test(k)) return `${property} key "${k}" must ${rules.keyRule ?? `match ${rules.key.source}`}`;
    if (typeof s !== 'string') return `${property}.${k} must be a string`;
    if (s.length > rules.maxValueLength) return `${property}.${k} must be at most ${rules.maxValueLength} characters`;
    if (rules.value && !rules.value.test(s))
      return `${property}.${k} must ${rules.valueRule ?? `match ${rules.value.source}`}`;
  }
  return null;
}

/**
 * An object of string values whose keys (and optionally values) match a pattern, with bounded
 * size. The message starts with the property, so a nested object gets its path in front
 * (`job.environment key "1X" must …` in a webhook body, `environment key …` in a job's).
 */
export function IsStringMap(rules: StringMapRules): PropertyDecorator {
  return (target: object, property: string | symbol) => {
    registerDecorator({
      name: 'isStringMap',
      target: target.constructor,
      propertyName: String(property),
      validator: {
        validate: (v: unknown, a: ValidationArguments): boolean => problem(a.property, v, rules) === null,
        defaultMessage: (a: ValidationArguments): string =>
          problem(a.property, a.value, rules) ?? `${a.property} is invalid`,
      },
    });
  };
}

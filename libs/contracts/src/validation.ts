import { ValidateBy, type ValidationOptions } from 'class-validator';

/*
 * class-validator runs a property's decorators bottom-up and, with stopAtFirstError, reports the
 * first that fails: a length rule placed below a type rule answers "must be 1..200 characters
 * long" for a number. These rules check the type first themselves, so the message says what is
 * wrong whatever the order.
 */

export interface StringListRule {
  minItems: number;
  maxItems: number;
  /** Length bounds of each item. */
  minLength: number;
  maxLength: number;
  /** What an item is, in messages ("at least 1 user"); default "item". */
  noun?: string;
}

export function stringListProblem(field: string, value: unknown, r: StringListRule): string | null {
  if (!Array.isArray(value)) return `${field} must be an array of strings`;
  const noun = r.noun ?? 'item';
  if (value.length < r.minItems)
    return `${field} must contain at least ${r.minItems} ${noun}${r.minItems === 1 ? '' : 's'}`;
  if (value.length > r.maxItems) return `${field} must contain at most ${r.maxItems} ${noun}s`;
  const bad = value.findIndex((v) => typeof v !== 'string');
  if (bad >= 0)
    return `${field} must be an array of strings; item ${bad} is ${value[bad] === null ? 'null' : typeof value[bad]}`;
  const long = (value as string[]).findIndex((v) => v.length < r.minLength || v.length > r.maxLength);
  if (long >= 0) return `each item of ${field} must be ${r.minLength}..${r.maxLength} characters long`;
  return null;
}

/** An array of strings with bounds on the count and on each item's length, one precise message. */
export function IsStringList(r: StringListRule, options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isStringList',
      validator: {
        validate: (value, args) => stringListProblem(args?.property ?? 'value', value, r) === null,
        defaultMessage: (args) => stringListProblem(args?.property ?? 'value', args?.value, r) ?? 'invalid',
      },
    },
    options,
  );
}

/** Postgres text refuses NUL, and no name or label needs control characters. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u001f\u007f]/;

export interface TextRule {
  minLength: number;
  maxLength: number;
}

export function textProblem(field: string, value: unknown, r: TextRule): string | null {
  if (typeof value !== 'string') return `${field} must be a string`;
  if (value.length < r.minLength || value.length > r.maxLength) {
    return r.minLength === 0
      ? `${field} must be at most ${r.maxLength} characters`
      : `${field} must be ${r.minLength}..${r.maxLength} characters long`;
  }
  if (CONTROL.test(value)) return `${field} must not contain control characters (such as NUL or line breaks)`;
  return null;
}

/** A one-line label (full name, display name): a string, length-bounded, no control characters. */
export function IsLabel(r: TextRule, options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isLabel',
      validator: {
        validate: (value, args) => textProblem(args?.property ?? 'value', value, r) === null,
        defaultMessage: (args) => textProblem(args?.property ?? 'value', args?.value, r) ?? 'invalid',
      },
    },
    options,
  );
}

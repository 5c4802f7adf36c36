import 'reflect-metadata';
import { plainToInstance } from 'class-transformer';
import { validateSync, type ValidationError } from 'class-validator';

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

function describe(errors: ValidationError[]): string[] {
  return errors.flatMap((e) => Object.values(e.constraints ?? {}).map((m) => `${e.property}: ${m}`));
}

/**
 * A config class may list, in a static `keepEmpty`, the variables whose empty value means
 * something (e.g. "off") rather than "unset, take the default".
 */
export interface ConfigClass<T> {
  new (): T;
  readonly keepEmpty?: readonly string[];
}

/**
 * Reads and validates an app's environment once, at boot. Code reads the typed result,
 * never process.env (style.md rule 6). Unknown variables are ignored; bad ones stop the boot
 * with every problem listed, so an operator fixes them in one go. An empty variable is unset
 * (its default applies), except those the class lists in `keepEmpty`.
 */
export function loadConfig<T extends object>(cls: ConfigClass<T>, env: NodeJS.ProcessEnv = process.env): T {
  const keep = new Set(cls.keepEmpty ?? []);
  const present = Object.fromEntries(
    Object.entries(env).filter(([k, v]) => v !== undefined && (v !== '' || keep.has(k))),
  );
  const config = plainToInstance(cls, present, { enableImplicitConversion: true, exposeDefaultValues: true });
  const problems = describe(validateSync(config, { whitelist: false }));
  if (problems.length > 0) {
    throw new ConfigError(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  }
  return config;
}

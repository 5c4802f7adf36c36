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
 * Reads and validates an app's environment once, at boot. Code reads the typed result,
 * never process.env (style.md rule 6). Unknown variables are ignored; bad ones stop the boot
 * with every problem listed, so an operator fixes them in one go.
 */
export function loadConfig<T extends object>(cls: new () => T, env: NodeJS.ProcessEnv = process.env): T {
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const config = plainToInstance(cls, present, { enableImplicitConversion: true, exposeDefaultValues: true });
  const problems = describe(validateSync(config, { whitelist: false }));
  if (problems.length > 0) {
    throw new ConfigError(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  }
  return config;
}

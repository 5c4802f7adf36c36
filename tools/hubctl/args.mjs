/** Command-line parsing for hubctl: no dependencies, so the CLI runs straight from a checkout. */

/** A mistake in the command line: hubctl prints the message and the usage, and exits 2. */
export class UsageError extends Error {
  constructor(message, usage) {
    super(message);
    this.usage = usage;
  }
}

/**
 * Splits argv into positionals and flags. `spec` maps a flag name to 'string', 'list'
 * (repeatable) or 'boolean'; `--name value` and `--name=value` both work, `--` ends the flags.
 */
export function parseArgs(argv, spec) {
  const positionals = [];
  const flags = {};
  for (let i = 0; i < argv.length; i++) {
    let arg = argv[i];
    if (arg === '--') {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    if (arg === '-h') arg = '--help';
    if (!arg.startsWith('--')) {
      positionals.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const name = eq === -1 ? arg.slice(2) : arg.slice(2, eq);
    const kind = spec[name];
    if (!kind) throw new UsageError(`unknown option --${name}`);
    if (kind === 'boolean') {
      if (eq !== -1) throw new UsageError(`--${name} takes no value`);
      flags[name] = true;
      continue;
    }
    const value = eq === -1 ? argv[++i] : arg.slice(eq + 1);
    if (value === undefined) throw new UsageError(`--${name} needs a value`);
    if (kind === 'list') (flags[name] ??= []).push(value);
    else flags[name] = value;
  }
  return { positionals, flags };
}

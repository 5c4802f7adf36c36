import { repoFile } from './repo-files';
import { configClasses } from './workspace';

/** Reserved for secrets at rest (later issues): no config class reads it yet, deployments must set it. */
export const RESERVED_VARS = ['HUB_SECRET_KEY'];

/** Read by hubctl, not by any app. */
export const CLI_VARS = ['HUB_URL'];

/** Property declarations in UPPER_SNAKE_CASE, e.g. `  DATABASE_URL?: string;` or `PORT: number = 8080;`. */
export function declaredVars(file: string): string[] {
  return [...repoFile(file).matchAll(/^\s+([A-Z][A-Z0-9_]*)[?!]?\s*:/gm)].map((m) => m[1]);
}

/** Every variable the config classes declare: what every example and manifest must cover. */
export function configVars(): string[] {
  return [...new Set(configClasses().flatMap((c) => declaredVars(c.file)))];
}

/** Variables of a dotenv example, set (`X=1`) or commented out (`# X=1`). */
export function envExampleVars(text: string): string[] {
  return [...text.matchAll(/^#?\s*([A-Z][A-Z0-9_]*)=/gm)].map((m) => m[1]);
}

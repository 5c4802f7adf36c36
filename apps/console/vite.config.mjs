// The web console: Preact + TypeScript, built by Vite to static files the gateway serves at `/`
// (issue 28). Apart from the services' webpack builds. The build fails when its JavaScript passes
// the budget of 60 kB gzipped in all.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { defineConfig } from 'vite';

const here = dirname(fileURLToPath(import.meta.url));
const outDir = join(here, '../../dist/apps/console');
export const JS_BUDGET_BYTES = 60 * 1024;

/** Sums the gzipped size of every emitted .js file and refuses the build above the budget. */
function scriptBudget() {
  return {
    name: 'hub-console-script-budget',
    closeBundle() {
      const dir = join(outDir, 'assets');
      const files = readdirSync(dir).filter((f) => f.endsWith('.js'));
      const total = files.reduce((sum, f) => sum + gzipSync(readFileSync(join(dir, f))).length, 0);
      const line = `console JavaScript: ${(total / 1024).toFixed(1)} kB gzipped (budget ${JS_BUDGET_BYTES / 1024} kB)`;
      if (total > JS_BUDGET_BYTES) throw new Error(`${line}: over budget`);
      process.stdout.write(`${line}\n`);
    },
  };
}

export default defineConfig({
  root: here,
  base: '/',
  publicDir: false,
  logLevel: 'warn',
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir,
    emptyOutDir: true,
    target: 'es2022',
    // No inline script anywhere: the page's CSP allows scripts from 'self' only.
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    sourcemap: false,
  },
  plugins: [scriptBudget()],
});

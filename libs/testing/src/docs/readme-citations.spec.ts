import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, sep } from 'node:path';

/**
 * Issue 23: READMEs and docs cite the tree; a cited path that no longer exists fails here, named.
 * Checked: markdown links to relative paths (from the file's folder), backticked paths from the
 * repository root (`libs/…`, `apps/…`, `docs/…`, `tools/…`, `bench/…`, `docker/…`, `k8s/…`,
 * `.ci/…`), and, in READMEs, backticked relative file paths (`core/http/json-body.ts`) from the
 * README's folder or its `src/`. Not checked: globs and placeholders (`*`, `<app>`, `{a,b}`, `…`),
 * paths outside the repository (`../shared/…`), URLs, code blocks, paths made at run time
 * (`./x`, `dist/`, `tmp/`, `test-artifacts/`, `coverage/`). Decisions are a record of their day:
 * their lib-relative paths are not checked, their root-relative ones are.
 */
const ROOT = normalize(join(__dirname, '..', '..', '..', '..'));
const FROM_ROOT = /^(apps|libs|docs|tools|bench|docker|k8s|\.ci)\//;
const NOT_A_PATH = /[\s<>*{}$…'"=@()[\],;|\\]|\.\.\.|^[a-z][a-z0-9+.-]*:/i;
/** Relative to the working directory or outside the repository, or made at run time. */
/** Files the reader makes (git-ignored): `cp docker/.env.example docker/.env`. */
const USER_MADE = /(^|\/)\.env$/;
const NOT_IN_TREE = /^(\.\.?\/|\/|~|dist\/|tmp\/|test-artifacts\/|coverage\/|node_modules\/)/;

interface Citation {
  text: string;
  /** Where it may be, relative to the repository root; it exists when one of them does. */
  candidates: string[];
}

/** The repository paths a markdown file (path relative to the root) cites. */
function citedPaths(file: string, markdown: string): Citation[] {
  const text = markdown.replace(/^(```|~~~)[\s\S]*?^\1/gm, '');
  const folder = dirname(file);
  const inRepo = (p: string): boolean => p !== '..' && !p.startsWith(`..${sep}`) && !p.startsWith('../');
  const out: Citation[] = [];
  for (const m of text.matchAll(/\[[^\]\n]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
    const target = (m[1] ?? '').replace(/[#?].*$/, '');
    if (target === '' || /^[a-z][a-z0-9+.-]*:/i.test(target) || /[<>*{}$…]/.test(target)) continue;
    const p = normalize(join(folder, decodeURIComponent(target)));
    if (inRepo(p)) out.push({ text: m[1] ?? '', candidates: [p] });
  }
  for (const m of text.matchAll(/`([^`\n]+)`/g)) {
    const raw = (m[1] ?? '').trim();
    const path = raw.replace(/:\d+(-\d+)?$/, '');
    if (NOT_A_PATH.test(path) || !path.includes('/') || USER_MADE.test(path)) continue;
    if (FROM_ROOT.test(path)) {
      out.push({ text: raw, candidates: [normalize(path)] });
    } else if (
      /(^|\/)README\.md$/.test(file) &&
      !NOT_IN_TREE.test(path) &&
      (/\/$/.test(path) || /\.[a-z]{1,5}$/i.test(path))
    ) {
      out.push({ text: raw, candidates: [normalize(join(folder, path)), normalize(join(folder, 'src', path))] });
    }
  }
  return out;
}

/** Every README.md in the tree and every markdown file under docs/, relative to the root. */
function markdownFiles(dir = ''): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const p = dir ? `${dir}/${e.name}` : e.name;
    if (e.isDirectory())
      return /^(node_modules|dist|tmp|coverage|test-artifacts)$/.test(e.name) || e.name.startsWith('.')
        ? []
        : markdownFiles(p);
    return e.name === 'README.md' || (p.startsWith('docs/') && e.name.endsWith('.md')) ? [p] : [];
  });
}

describe('paths cited by READMEs and docs', () => {
  it('finds links and backticked paths, and leaves globs, placeholders, URLs, code blocks and outside paths alone', () => {
    const md = [
      'See [the hub](../hub/README.md), [decision 10](../../docs/decisions/0010-edge-hardening.md#why) and [the site](https://example.com/a/b.md).',
      'Code in `libs/service-gateway/src/core/http/json-body.ts:12` and `core/auth/`; specs in `apps/hub/src/*.e2e-spec.ts`, `libs/<name>/src`.',
      'Style: [style](../../../shared/design/style.md), `../shared/spec/hub-interface.md`, `@hub/contracts`, `GET /api/models`, `owner/name`, `./out.jsonl`, `dist/apps/hub/main.js`.',
      '```',
      'node bench/missing/run.mjs `libs/missing.ts`',
      '```',
    ].join('\n');
    expect(citedPaths('apps/gateway/README.md', md).map((c) => c.candidates)).toEqual(
      [
        ['apps/hub/README.md'],
        ['docs/decisions/0010-edge-hardening.md'],
        ['libs/service-gateway/src/core/http/json-body.ts'],
        ['apps/gateway/core/auth/', 'apps/gateway/src/core/auth/'],
      ].map((c) => c.map(normalize)),
    );
    expect(
      citedPaths('docs/decisions/0002-x.md', 'in `migrations/index.ts` of each service; `docs/events.md`').map(
        (c) => c.text,
      ),
    ).toEqual(['docs/events.md']);
  });

  it('every cited path exists', () => {
    const files = markdownFiles();
    expect(files).toEqual(
      expect.arrayContaining(['README.md', 'apps/gateway/README.md', 'docs/decisions/0010-edge-hardening.md']),
    );
    const missing = files.flatMap((file) =>
      citedPaths(file, readFileSync(join(ROOT, file), 'utf8'))
        .filter((c) => !c.candidates.some((p) => existsSync(join(ROOT, p))))
        .map((c) => `${file}: ${c.text}`),
    );
    expect(missing).toEqual([]);
  });
});

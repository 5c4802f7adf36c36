import { CLI_VARS, configVars, declaredVars, envExampleVars, RESERVED_VARS } from './support/config-vars';
import { byKind } from './support/k8s-objects';
import { repoFile, repoTree } from './support/repo-files';
import { configClasses } from './support/workspace';

describe('configuration examples follow the config classes', () => {
  const required = [...new Set([...configVars(), ...RESERVED_VARS])];
  const example = repoFile('.env.example');
  const documented = envExampleVars(example);

  it('finds the variables of the config classes (the parser is not blind)', () => {
    expect(required).toEqual(
      expect.arrayContaining([
        'DATABASE_URL',
        'NATS_URL',
        'PORT',
        'HUB_ADMIN_TOKEN',
        'HUB_AUTH_CACHE_SIZE',
        'SMTP_URL',
        'SMTP_FROM',
      ]),
    );
    expect(required.length).toBeGreaterThanOrEqual(19);
  });

  it('.env.example names every variable once, each with a comment above it', () => {
    expect(required.filter((v) => !documented.includes(v))).toEqual([]);
    expect(documented.filter((v, i) => documented.indexOf(v) !== i)).toEqual([]);
    const lines = example.split('\n');
    const bare = lines
      .map((line, i) => ({ line, above: lines[i - 1] ?? '' }))
      .filter(({ line }) => /^#?\s*[A-Z][A-Z0-9_]*=/.test(line))
      .filter(({ above }) => !/^#/.test(above) || /^#?\s*[A-Z][A-Z0-9_]*=/.test(above));
    expect(bare.map(({ line }) => line)).toEqual([]);
  });

  it('.env.example points at the file of every config class that declares variables', () => {
    const withVars = configClasses().filter((c) => declaredVars(c.file).length > 0);
    expect(withVars.filter((c) => !example.includes(`(${c.file})`)).map((c) => c.file)).toEqual([]);
  });

  it('.env.example names nothing that no config class reads', () => {
    // Every *config.ts under libs, so a service added later may document its own variables.
    const configFiles = repoTree('libs').filter((f) => /\/src\/.*config\.ts$/.test(f));
    const known = new Set([...configFiles.flatMap(declaredVars), ...RESERVED_VARS, ...CLI_VARS]);
    expect(documented.filter((v) => !known.has(v))).toEqual([]);
  });

  it('the k8s ConfigMap or Secret example sets every variable, never both', () => {
    const configMap = Object.keys(byKind('ConfigMap')[0]?.data ?? {});
    const secret = byKind('Secret').flatMap((s) => Object.keys(s.stringData ?? {}));
    expect(required.filter((v) => !configMap.includes(v) && !secret.includes(v))).toEqual([]);
    expect(configMap.filter((v) => secret.includes(v))).toEqual([]);
  });
});

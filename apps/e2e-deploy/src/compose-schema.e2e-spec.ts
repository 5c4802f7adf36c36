import { composeValidator } from './support/compose-schema';
import { yamlDocuments } from './support/repo-files';

/** docker/docker-compose.yml against the Compose Specification's own schema, offline. */
describe('docker/docker-compose.yml against the Compose Specification schema', () => {
  const validate = composeValidator();
  const compose = yamlDocuments('docker/docker-compose.yml')[0] as {
    services: Record<string, Record<string, unknown>>;
  };

  it('is a valid Compose file (merge keys resolved, as Compose reads it)', () => {
    const ok = validate(compose);
    expect(ok ? [] : validate.errors?.map((e) => `${e.instancePath} ${e.message} ${JSON.stringify(e.params)}`)).toEqual(
      [],
    );
  });

  it('the schema is not blind: a misspelt key, a bad depends_on condition and a bad restart type are refused', () => {
    const typo = structuredClone(compose);
    typo.services['gateway']['healthckeck'] = typo.services['gateway']['healthcheck'];
    expect(validate(typo)).toBe(false);
    const badCondition = structuredClone(compose);
    badCondition.services['gateway']['depends_on'] = { nats: { condition: 'service_ready' } };
    expect(validate(badCondition)).toBe(false);
    const badRestart = structuredClone(compose);
    badRestart.services['gateway']['restart'] = 3;
    expect(validate(badRestart)).toBe(false);
  });
});

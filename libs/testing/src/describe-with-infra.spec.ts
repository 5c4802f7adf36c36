/** The unit tier (HUB_TEST_TIER=unit, set by jest.unit.config.ts) refuses a suite that asks for Postgres and NATS. */
describe('describeWithInfra', () => {
  const tier = process.env['HUB_TEST_TIER'];
  afterEach(() => {
    if (tier === undefined) delete process.env['HUB_TEST_TIER'];
    else process.env['HUB_TEST_TIER'] = tier;
  });

  function load(): jest.Describe {
    let d: jest.Describe | undefined;
    jest.isolateModules(() => {
      d = (jest.requireActual('./describe-with-infra') as { describeWithInfra: jest.Describe }).describeWithInfra;
    });
    return d as jest.Describe;
  }

  it('in the unit tier, fails naming the suite and the file name it should have', () => {
    process.env['HUB_TEST_TIER'] = 'unit';
    expect(() => load()('talks to NATS', () => undefined)).toThrow(
      /"talks to NATS" needs PostgreSQL and NATS: name its file \*\.int-spec\.ts/,
    );
  });

  it('outside it, is describe or describe.skip as the global setup found the infrastructure', () => {
    delete process.env['HUB_TEST_TIER'];
    expect([describe, describe.skip]).toContain(load());
  });
});

import { infraAvailable } from './infra';

/**
 * `describe` for suites that need real Postgres and NATS: skipped (with the reason printed once
 * by the global setup) when they are down, unless HUB_TEST_REQUIRE_INFRA=1, where the global
 * setup fails the run instead.
 */
export const describeWithInfra: jest.Describe = infraAvailable() ? describe : describe.skip;

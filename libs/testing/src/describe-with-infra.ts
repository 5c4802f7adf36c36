import { infraAvailable, unitTier } from './infra';

/** In the unit tier a suite that asks for infrastructure is misnamed: it fails, saying so. */
const misnamed = ((name: string) => {
  throw new Error(
    `"${name}" needs PostgreSQL and NATS: name its file *.int-spec.ts (npm run test:unit runs *.spec.ts, which must need neither)`,
  );
}) as unknown as jest.Describe;

/**
 * `describe` for suites that need real Postgres and NATS: skipped (with the reason printed once
 * by the global setup) when they are down, unless HUB_TEST_REQUIRE_INFRA=1, where the global
 * setup fails the run instead.
 */
export const describeWithInfra: jest.Describe = unitTier() ? misnamed : infraAvailable() ? describe : describe.skip;

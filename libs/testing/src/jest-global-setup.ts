import { engineSocketForTests, ensureTestJobImage } from './job-engine';
import { NATS_URL_FOR_TESTS, PG_HOST, PG_PORT, portOpen, unitTier } from './infra';

/** Probes Postgres and NATS once per jest run. */
export default async function globalSetup(): Promise<void> {
  if (unitTier()) {
    // Unit specs need no infrastructure: nothing to probe, and HUB_TEST_REQUIRE_INFRA does not apply.
    process.env['HUB_TEST_INFRA'] = '0';
    return;
  }
  const nats = new URL(NATS_URL_FOR_TESTS);
  const [pgUp, natsUp] = await Promise.all([
    portOpen(PG_HOST, PG_PORT),
    portOpen(nats.hostname, Number(nats.port || 4222)),
  ]);
  const missing = [!pgUp && `PostgreSQL at ${PG_HOST}:${PG_PORT}`, !natsUp && `NATS at ${NATS_URL_FOR_TESTS}`].filter(
    Boolean,
  );
  if (missing.length === 0) {
    process.env['HUB_TEST_INFRA'] = '1';
    await probeEngine();
    return;
  }
  if (process.env['HUB_TEST_REQUIRE_INFRA'] === '1') {
    throw new Error(`HUB_TEST_REQUIRE_INFRA=1 but ${missing.join(' and ')} not reachable`);
  }
  process.env['HUB_TEST_INFRA'] = '0';
  console.warn(`\n*** SKIPPING tests that need real infrastructure: ${missing.join(' and ')} not reachable ***\n`);
}

/** A container engine for the jobs suites (they fail under HUB_TEST_REQUIRE_INFRA=1 without one), with the test image built. */
async function probeEngine(): Promise<void> {
  const socket = engineSocketForTests();
  process.env['HUB_TEST_ENGINE'] = '0';
  if (!socket) return;
  try {
    await ensureTestJobImage(socket);
    process.env['HUB_TEST_ENGINE'] = '1';
  } catch (e) {
    console.warn(`\n*** no container engine for the jobs suites at ${socket}: ${String(e)} ***\n`);
  }
}

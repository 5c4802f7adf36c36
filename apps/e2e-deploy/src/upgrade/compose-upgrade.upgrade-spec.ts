import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '@hub/testing';
import { ComposeStack, COMPOSE_FILE, docker, ENGINE_FILE, IMAGE_TAG } from '../stack/compose-stack';
import { ReceiverContainer } from '../stack/receiver';
import { UpgradeScenario } from './scenario';
import { linesNaming, type TrafficLedger } from './traffic';

/** The previous release's checkout (`git worktree`, made by docker/local/test-upgrade.sh) and its images' tag. */
const PREV_DIR = process.env['HUB_UPGRADE_PREV_DIR'] ?? '';
const PREV_TAG = process.env['HUB_UPGRADE_PREV_TAG'] ?? '';
const LOG_FILE = join(tmpdir(), 'hub-upgrade-stack.log');
/** The order of the rollout: what others call first, the gateway (the edge) last. */
const SERVICES = ['credentials', 'organizations', 'notifications', 'webhooks', 'jobs', 'gateway'];
/**
 * Services stopped before their migration runs, because the previous release's code cannot run on
 * the migrated schema (decision 0207): the partitioned audit log (after 0.1.0) refuses 0.1.0's
 * `ON CONFLICT (id)` inserts, and a failing audit event is dead-lettered after 5 tries (~15 s).
 * Stopped, it consumes nothing: the events wait on the bus for the new replica.
 */
const STOPPED_FOR_MIGRATION = ['organizations'];
const migrate = (svc: string): string => `migrate-${svc}`;

/**
 * The previous release (PREV_DIR's compose files, its images) brought up on Compose and driven
 * through the gateway, then upgraded to this tree one service at a time (`up -d --no-deps`) while
 * traffic flows: webhook deliveries to a receiver container, tokens made and used, notifications,
 * audit events, jobs running across the jobs service's replacement, a console session (the shared
 * scenario: scenario.ts). Issue 38 item 2; the rule it tests is decision 0203's expand/contract
 * (decision 0207 for this test).
 */
describe('upgrade from the previous release on Compose, under traffic', () => {
  let stack: ComposeStack;
  let receiver: ReceiverContainer;
  let scenario: UpgradeScenario;
  const steps: { step: string; seconds: number }[] = [];

  beforeAll(async () => {
    if (!PREV_DIR || !PREV_TAG)
      throw new Error('HUB_UPGRADE_PREV_DIR and HUB_UPGRADE_PREV_TAG: run through npm run test:upgrade');
    stack = new ComposeStack(await freePort(), await freePort());
    stack.files = [join(PREV_DIR, 'docker/docker-compose.yml'), join(PREV_DIR, 'docker/docker-compose.engine.yml')];
    stack.imageTag = PREV_TAG;
    await stack.down();
    const t0 = Date.now();
    await stack.compose('up', '-d');
    await stack.waitReady();
    steps.push({ step: 'previous release up', seconds: Math.round((Date.now() - t0) / 100) / 10 });
    receiver = await ReceiverContainer.start(stack.network);
    scenario = new UpgradeScenario({ baseUrl: stack.baseUrl, adminToken: stack.adminToken }, receiver, async (id) =>
      linesNaming(await stack.logs(20000), id).join('\n'),
    );
  }, 900_000);

  afterAll(async () => {
    if (stack) writeFileSync(LOG_FILE, await stack.logs(400));
    console.log(`compose logs: ${LOG_FILE}\nsteps: ${JSON.stringify([...steps, ...(scenario?.steps ?? [])])}`);
    if (process.env['HUB_DEPLOY_KEEP'] === '1') return;
    await ReceiverContainer.stop();
    await stack?.down();
  }, 300_000);

  it('upgrades every service to this tree while traffic flows, and nothing is lost', async () => {
    const timed = <T>(step: string, fn: () => Promise<T>): Promise<T> => scenario.timed(step, fn);
    await scenario.before();
    scenario.startTraffic();
    let ledger: TrafficLedger | undefined;
    try {
      await scenario.moreDelivered(30);
      // This tree's compose files and images from here on.
      stack.files = [COMPOSE_FILE, ENGINE_FILE];
      stack.imageTag = IMAGE_TAG;
      // NATS first: this release's permissions (a superset of the previous release's) on the same JetStream volume.
      await timed('nats', async () => {
        await stack.compose('up', '-d', '--no-deps', 'nats');
        await stack.waitHealthy('nats');
      });
      await scenario.moreDelivered(20);
      // Migrations before any new code; the previous release's services keep running on the new schema.
      for (const svc of SERVICES.filter((x) => x !== 'gateway' && !STOPPED_FOR_MIGRATION.includes(x)))
        await timed(migrate(svc), () => stack.compose('run', '--rm', '--no-deps', migrate(svc)));
      await scenario.moreDelivered(20);
      for (const svc of SERVICES) {
        // The early job ends on the previous release's jobs service; a later one runs across its replacement.
        if (svc === 'jobs') await scenario.beforeJobsReplaced();
        await timed(svc, async () => {
          if (STOPPED_FOR_MIGRATION.includes(svc)) {
            await stack.compose('stop', svc);
            await stack.compose('run', '--rm', '--no-deps', migrate(svc));
          }
          await stack.compose('up', '-d', '--no-deps', svc);
          await stack.waitHealthy(svc);
        });
        await scenario.moreDelivered(20);
      }
    } finally {
      ledger = await scenario.stopTraffic();
    }
    const images = await Promise.all(
      SERVICES.map(async (svc) => {
        const [id] = await stack.containers(svc);
        return id ? docker('inspect', '-f', '{{.Config.Image}}', id) : `${svc}: none`;
      }),
    );
    expect(images).toEqual(SERVICES.map((svc) => `hub-services/${svc}:${IMAGE_TAG}`));
    await scenario.checkAfter(ledger);
  }, 2_400_000);
});

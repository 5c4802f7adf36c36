import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import {
  describeWithInfra,
  DistributedHub,
  exportedSeries,
  freePort,
  type RunningProcess,
  startApp,
  unexportedNames,
  WORKSPACE_ROOT,
} from '@hub/testing';

const ADMIN = 'alerts-metrics-admin-token';
const METRICS_TOKEN = 'alerts-metrics-scrape-token';
const SERVICES = ['credentials', 'organizations', 'notifications', 'webhooks', 'jobs'];

interface RulesFile {
  groups: { rules: { alert: string; expr: string }[] }[];
}
interface Dashboard {
  panels: { title: string; targets: { expr: string }[] }[];
}

/** Every PromQL expression of the alert rules and the dashboard (decision 0205), named for the report. */
function expressions(): { where: string; expr: string }[] {
  const rules = parse(readFileSync(join(WORKSPACE_ROOT, 'docs/operating/alerts.rules.yml'), 'utf8')) as RulesFile;
  const dashboard = JSON.parse(
    readFileSync(join(WORKSPACE_ROOT, 'docs/operating/grafana-dashboard.json'), 'utf8'),
  ) as Dashboard;
  return [
    ...rules.groups.flatMap((g) => g.rules.map((r) => ({ where: `rule ${r.alert}`, expr: r.expr }))),
    ...dashboard.panels.flatMap((p) => p.targets.map((t) => ({ where: `panel "${p.title}"`, expr: t.expr }))),
  ];
}

async function scrape(url: string): Promise<string> {
  const res = await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  if (res.status !== 200) throw new Error(`${url}/metrics answered ${res.status}`);
  return res.text();
}

/**
 * The alert rules and the Grafana dashboard name only metrics and labels a hub app exports: every
 * app's /metrics scraped in a running distributed stack (each service and the gateway) and in an
 * all-in-one hub on its embedded PostgreSQL.
 */
describeWithInfra('alert rules and dashboard against the metrics the apps export', () => {
  const hub = new DistributedHub({
    busPrefix: 'alerts',
    adminToken: ADMIN,
    env: { HUB_METRICS_TOKEN: METRICS_TOKEN, HUB_SECRET_KEY: 'alerts-metrics-secret-key', HUB_JOBS_ENGINE: 'host' },
    services: SERVICES,
    parallelMigrations: true,
  });
  const dataDir = mkdtempSync(join(tmpdir(), 'hub-alerts-'));
  let allInOne: RunningProcess | undefined;
  let allInOneUrl = '';

  beforeAll(async () => {
    const port = await freePort();
    allInOneUrl = `http://127.0.0.1:${port}`;
    allInOne = startApp('hub', {
      PORT: String(port),
      HOST: '127.0.0.1',
      HUB_DATA_DIR: dataDir,
      HUB_ADMIN_TOKEN: ADMIN,
      HUB_METRICS_TOKEN: METRICS_TOKEN,
      HUB_JOBS_ENGINE: 'host',
    });
    await Promise.all([hub.start(), allInOne.waitForReady(`${allInOneUrl}/health/ready`, 300_000)]);
  }, 420_000);

  afterAll(async () => {
    await allInOne?.stop();
    await hub.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('every metric and label a rule or a panel names is exported by some app', async () => {
    const urls = [...SERVICES.map((s) => hub.process(s).url), ...hub.gateways, allInOneUrl];
    const series = exportedSeries(await Promise.all(urls.map(scrape)));
    // The checker is not blind: the metrics this work added are there, a made-up one is reported.
    for (const name of [
      'hub_webhook_oldest_due_seconds',
      'hub_jobs_oldest_scheduling_seconds',
      'hub_bus_consumer_pending',
      'hub_db_pool_waiting',
      'hub_embedded_postgres_up',
    ])
      expect({ name, exported: series.has(name) }).toEqual({ name, exported: true });
    expect(unexportedNames('sum by (stage) (hub_made_up_total{outcome="x"})', series)).toEqual([
      'metric hub_made_up_total',
      'grouping label stage',
    ]);
    const all = expressions();
    expect(all.length).toBeGreaterThanOrEqual(20);
    expect(
      all
        .map(({ where, expr }) => ({ where, problems: unexportedNames(expr, series) }))
        .filter((e) => e.problems.length),
    ).toEqual([]);
  });
});

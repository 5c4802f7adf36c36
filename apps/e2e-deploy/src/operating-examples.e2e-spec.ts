import { type K8sObject } from './support/k8s-objects';
import { schemaErrors } from './support/k8s-schema';
import { renderKustomization } from './support/kustomize';
import { repoFile, yamlDocuments } from './support/repo-files';

type Loose = K8sObject & { spec?: Record<string, unknown>; data?: Record<string, unknown> };

/** The operating examples kept out of k8s/base (decisions 0204, 0205), checked as the base is. */
describe('k8s/examples', () => {
  it('the backup CronJob and its volume pass the Kubernetes schemas and dump the whole database in the custom format', () => {
    const objects = yamlDocuments('k8s/examples/backup-cronjob.yaml') as Loose[];
    expect(objects.map((o) => `${o.kind} ${o.metadata.namespace}/${o.metadata.name}`)).toEqual([
      'PersistentVolumeClaim hub/hub-backups',
      'CronJob hub/hub-backup',
    ]);
    expect(objects.map((o) => ({ o: o.kind, errors: schemaErrors(o) }))).toEqual([
      { o: 'PersistentVolumeClaim', errors: '' },
      { o: 'CronJob', errors: '' },
    ]);
    const cron = objects[1] as unknown as {
      spec: {
        concurrencyPolicy: string;
        jobTemplate: { spec: { template: { spec: { containers: { args: string[]; env: unknown[] }[] } } } };
      };
    };
    expect(cron.spec.concurrencyPolicy).toBe('Forbid');
    const container = cron.spec.jobTemplate.spec.template.spec.containers[0];
    expect(container.args.join('\n')).toMatch(
      /pg_dump --format=custom --file="\$f\.partial" --dbname="\$DATABASE_URL"/,
    );
    // The Secret it reads is the one the base's apps read.
    expect(container.env).toEqual([
      { name: 'DATABASE_URL', valueFrom: { secretKeyRef: { name: 'hub-secrets', key: 'DATABASE_URL' } } },
    ]);
    expect(renderKustomization('k8s/base').filter((o) => o.kind === 'CronJob')).toEqual([]);
    expect(repoFile('k8s/base/secret.example.yaml')).toMatch(/name: hub-secrets[\s\S]*DATABASE_URL:/);
  });

  it('the PrometheusRule holds exactly the rules of docs/operating/alerts.rules.yml', () => {
    const [rule] = yamlDocuments('k8s/examples/prometheus-rule.yaml') as Loose[];
    const [plain] = yamlDocuments('docs/operating/alerts.rules.yml') as { groups: unknown[] }[];
    expect({ apiVersion: rule.apiVersion, kind: rule.kind }).toEqual({
      apiVersion: 'monitoring.coreos.com/v1',
      kind: 'PrometheusRule',
    });
    expect(rule.spec).toEqual(plain);
    const names = (plain.groups as { rules: { alert: string }[] }[]).flatMap((g) => g.rules.map((r) => r.alert));
    expect(names).toEqual([
      'HubWebhookDeliveriesWaiting',
      'HubWebhooksSuspendedBurst',
      'HubJobsStuckInScheduling',
      'HubBusConsumerLag',
      'HubDatabasePoolExhausted',
      'HubHttp5xxRate',
      'HubEmbeddedPostgresDown',
    ]);
  });
});

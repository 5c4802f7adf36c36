import { type StreamReceiver } from '../audit-stream-receivers';
import { http } from '../http-client';
import { addMember, type HubTarget, makeUser } from '../hub-factory';
import { type SmtpCapture } from '../smtp-capture';
import { queryDatabase } from '../test-database';

/** A hub with audit streams on: its settings (AUDIT_STREAM_TEST_ENV) and the Datadog receiver its intake override points at. */
export interface AuditStreamTarget extends HubTarget {
  databaseUrl: string;
  datadog: StreamReceiver;
  smtp: SmtpCapture;
}

/** Settings of a hub under the audit stream scenarios; HUB_AUDIT_STREAM_DATADOG_URL is the test's Datadog receiver. */
export const AUDIT_STREAM_TEST_ENV = {
  HUB_AUDIT_STREAM_ALLOWED_NETWORKS: '127.0.0.1/32',
  HUB_AUDIT_STREAM_FLUSH_MS: '300',
  HUB_AUDIT_STREAMS_PER_ORG: '4',
  HUB_AUDIT_STREAM_FAILING_AFTER_S: '2',
  HUB_AUDIT_STREAM_LEASE_MS: '3000',
  /** 21.6 s: short enough for a test to wait it out while a stream is paused. */
  HUB_AUDIT_STREAM_RETENTION_DAYS: '0.00025',
};
export const AUDIT_STREAM_RETENTION_MS = 0.00025 * 86_400_000;

export const SECRET = 'audit-stream-secret-0123456789';

export interface StreamView {
  id: string;
  type: string;
  state: string;
  hints: Record<string, string>;
  lastError: string | null;
  dropped: number;
  [k: string]: unknown;
}

export const streamsPath = (org: string, rest = ''): string => `/api/organizations/${org}/audit-log/streams${rest}`;

export async function createStream(
  t: HubTarget,
  token: string,
  org: string,
  body: Record<string, unknown>,
): Promise<StreamView> {
  const res = await http<StreamView>(t.baseUrl, 'POST', streamsPath(org), { token, body });
  if (res.status !== 201) throw new Error(`create stream answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body;
}

/** Audit events of real actions: each member added is an `org.add_user` event, each role change an `org.change_role`. */
export async function makeAuditEvents(t: HubTarget, org: string, members: number): Promise<void> {
  for (let i = 0; i < members; i++) {
    const u = await makeUser(t);
    await addMember(t, org, u.name, 'read');
    await addMember(t, org, u.name, 'write');
  }
}

/** The organization's audit event ids, oldest first (the export answers newest first). */
export async function exportedIds(t: HubTarget, token: string, org: string): Promise<string[]> {
  const res = await http<{ _id: string }[]>(t.baseUrl, 'GET', `/api/organizations/${org}/audit-log/export`, { token });
  return res.status === 200 ? res.body.map((e) => e._id).reverse() : [];
}

/** The receiver's ids among `ids`, first arrivals only, in arrival order. */
export function arrived(r: { events: { _id: string }[] }, ids: string[]): string[] {
  const wanted = new Set(ids);
  return [...new Set(r.events.map((e) => e._id).filter((id) => wanted.has(id)))];
}

/**
 * `ids` in the order a stream sends them: the order their transactions committed (tx, then id),
 * which is the export's order in one process but not across replicas ingesting side by side.
 */
export async function streamOrder(t: AuditStreamTarget, ids: string[]): Promise<string[]> {
  const rows = await queryDatabase<{ id: string }>(
    t.databaseUrl,
    'SELECT id FROM organizations.audit_events WHERE id = ANY($1) ORDER BY tx, id',
    [ids],
  );
  return rows.map((r) => r.id);
}

import { randomBytes } from 'node:crypto';
import { http } from './http-client';

export interface TestUser {
  id: string;
  name: string;
  token: string;
  tokenId: string;
}

export interface HubTarget {
  baseUrl: string;
  adminToken: string;
}

/** Unique names so suites can share one hub. */
export function uniqueName(prefix: string): string {
  return `${prefix}-${randomBytes(4).toString('hex')}`;
}

async function admin<T>(hub: HubTarget, path: string, body: unknown, expected: number): Promise<T> {
  const res = await http<T>(hub.baseUrl, 'POST', path, { token: hub.adminToken, body });
  if (res.status !== expected) throw new Error(`POST ${path} answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body;
}

/** Creates a user with one token through the admin API, as an operator would. */
export async function makeUser(
  hub: HubTarget,
  role: 'read' | 'write' | 'fineGrained' = 'write',
  prefix = 'user',
): Promise<TestUser> {
  const name = uniqueName(prefix);
  const user = await admin<{ id: string }>(hub, '/admin/users', { name, email: `${name}@example.com` }, 201);
  const token = await admin<{ token: string; id: string }>(hub, `/admin/users/${name}/tokens`, { role }, 201);
  return { id: user.id, name, token: token.token, tokenId: token.id };
}

export async function makeToken(
  hub: HubTarget,
  user: string,
  role: 'read' | 'write' = 'write',
): Promise<{ token: string; id: string }> {
  return admin(hub, `/admin/users/${user}/tokens`, { role }, 201);
}

export async function makeOrg(
  hub: HubTarget,
  plan: string,
  admins: string[],
  prefix = 'org',
): Promise<{ id: string; name: string }> {
  return admin(hub, '/admin/organizations', { name: uniqueName(prefix), plan, admins }, 201);
}

export async function addMember(hub: HubTarget, org: string, user: string, role: string): Promise<void> {
  await admin(hub, `/admin/organizations/${org}/members`, { user, role }, 200);
}

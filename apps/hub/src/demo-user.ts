import { HubError, type RequestContext } from '@hub/contracts';
import { OrganizationsRpc } from '@hub/organizations-contract';
import { CredentialsRpc, type UserView } from '@hub/credentials-contract';
import { type RpcClient } from '@hub/messaging';

export interface DemoUser {
  user: UserView;
  /** Only on the start that created the user. */
  token?: string;
}

const ctx: RequestContext = { requestId: 'hub-bootstrap', admin: true };

/** On first start: a demo user with a write token, admin of a demo organization. */
export async function ensureDemoUser(rpc: RpcClient): Promise<DemoUser> {
  try {
    return { user: await rpc.call(CredentialsRpc.GetUser, { name: 'demo' }, ctx) };
  } catch (e) {
    if (!(e instanceof HubError) || e.status !== 404) throw e;
  }
  const user = await rpc.call(
    CredentialsRpc.CreateUser,
    { name: 'demo', email: 'demo@hub.local', fullname: 'Demo User' },
    ctx,
  );
  const created = await rpc.call(
    CredentialsRpc.CreateToken,
    { user: 'demo', role: 'write', displayName: 'demo token' },
    ctx,
  );
  await rpc.call(
    OrganizationsRpc.Create,
    { name: 'demo-org', fullname: 'Demo Organization', plan: 'enterprise', admins: [{ id: user.id, name: user.name }] },
    ctx,
  );
  return { user, token: created.token };
}

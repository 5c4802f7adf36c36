import { type ErrorEnvelope, HubError } from '@hub/contracts';
import { RpcDispatcher, toHubError } from '@hub/messaging';
import { OrganizationExistsError, OrganizationNotFoundError } from './organizations.errors';

/** What a handler throws, as the gateway receives it after the bus (JSON both ways). */
async function acrossTheBus(thrown: unknown): Promise<{ envelope: ErrorEnvelope; received: HubError }> {
  const route = {
    subject: 'organizations.organization.create',
    request: class {},
    invoke: (): never => {
      throw thrown;
    },
  };
  const reply = await new RpcDispatcher().handle(route, JSON.stringify({ ctx: { requestId: 'r1' }, data: {} }));
  const envelope = (
    JSON.parse(typeof reply === 'string' ? reply : Buffer.from(reply).toString('utf8')) as { error: ErrorEnvelope }
  ).error;
  const wire = JSON.parse(JSON.stringify(envelope)) as unknown;
  return { envelope, received: toHubError(wire, 'organizations.organization.create') };
}

describe('organizations errors cross the bus as the envelope', () => {
  it('an unknown organization is ORGANIZATION_NOT_FOUND, 404, with its message', async () => {
    const { envelope, received } = await acrossTheBus(new OrganizationNotFoundError('acme'));
    expect(envelope).toEqual({ code: 'ORGANIZATION_NOT_FOUND', status: 404, message: 'Organization acme not found' });
    expect(received).toBeInstanceOf(HubError);
    expect({ code: received.code, status: received.status, message: received.message }).toEqual(envelope);
  });

  it('a taken name is ORGANIZATION_EXISTS, 409', async () => {
    const { envelope } = await acrossTheBus(new OrganizationExistsError('acme'));
    expect(envelope).toEqual({
      code: 'ORGANIZATION_EXISTS',
      status: 409,
      message: 'An organization named acme already exists',
    });
  });
});

import { type ArgumentsHost } from '@nestjs/common';
import { firstValueFrom } from 'rxjs';
import { type ErrorEnvelope, HubError } from '@hub/contracts';
import { RpcErrorFilter, toHubError } from '@hub/messaging';
import { OrganizationExistsError, OrganizationNotFoundError } from './organizations.errors';

/** What a handler throws, as the gateway receives it after the bus (JSON both ways). */
async function acrossTheBus(thrown: unknown): Promise<{ envelope: ErrorEnvelope; received: HubError }> {
  const envelope = await firstValueFrom(new RpcErrorFilter().catch(thrown, {} as ArgumentsHost)).catch((e: ErrorEnvelope) => e);
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
    expect(envelope).toEqual({ code: 'ORGANIZATION_EXISTS', status: 409, message: 'An organization named acme already exists' });
  });
});

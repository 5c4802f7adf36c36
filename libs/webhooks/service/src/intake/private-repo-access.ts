import { Injectable } from '@nestjs/common';
import { HubError, roleGrantsAccess, type WebhookPayloadRepo } from '@hub/contracts';
import { OrganizationsRpc } from '@hub/organizations-contract';
import { RpcClient } from '@hub/messaging';
import { DeliveryQueue, type MatchInput } from '../delivery/delivery-queue';

/**
 * Who may hear of a private repo (decision 0501): the owner the event names (`repo.owner.id`),
 * and members of the organization that owns it whose role opens it (not no_access, decision 0014),
 * asked of the organizations service. Everyone else's webhooks stay silent, whatever they watch. An organizations service that does not answer
 * fails the intake, and the bus brings the event back later: no delivery is decided on a guess.
 */
@Injectable()
export class PrivateRepoAccess {
  constructor(
    private readonly queue: DeliveryQueue,
    private readonly rpc: RpcClient,
  ) {}

  async allowedOwners(match: MatchInput, repo: WebhookPayloadRepo): Promise<string[]> {
    const repoOwner = ownerIdOf(repo);
    const allowed = repoOwner ? [repoOwner] : [];
    for (const candidate of await this.queue.candidateOwners(match)) {
      if (candidate !== repoOwner && (await this.isMember(match.ownerName, candidate))) allowed.push(candidate);
    }
    return allowed;
  }

  private async isMember(organization: string, userId: string): Promise<boolean> {
    try {
      const access = await this.rpc.call(
        OrganizationsRpc.GetAccess,
        { organization, userId },
        { requestId: `webhooks-visibility-${userId}` },
      );
      return roleGrantsAccess(access.role);
    } catch (err) {
      // 404: a user's namespace, not an organization; 400: not even a valid organization name.
      if (err instanceof HubError && (err.status === 404 || err.status === 400)) return false;
      throw err;
    }
  }
}

function ownerIdOf(repo: WebhookPayloadRepo): string | undefined {
  const owner = repo['owner'];
  if (typeof owner !== 'object' || owner === null) return undefined;
  const id = (owner as Record<string, unknown>)['id'];
  return typeof id === 'string' ? id : undefined;
}

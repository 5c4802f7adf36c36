import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource } from 'typeorm';
import { HubError, roleGrantsAccess } from '@hub/contracts';
import { type WebhookPayloadRepo } from '@hub/webhooks-contract';
import { OrganizationsRpc } from '@hub/organizations-contract';
import { RpcClient } from '@hub/messaging';
import { DeliveryQueueStore, type MatchInput } from '../delivery/delivery-queue.store';
import { WEBHOOKS_DS } from '../webhooks.di';

/**
 * Who may hear of a private repo (decision 0501): the owner the event names (`repo.owner.id`),
 * and members of the organization that owns it whose role opens it (not no_access, decision 0014),
 * asked of the organizations service. Everyone else's webhooks stay silent, whatever they watch. An organizations service that does not answer
 * fails the intake, and the bus brings the event back later: no delivery is decided on a guess.
 */
@Injectable()
export class PrivateRepoAccess {
  constructor(
    @InjectDataSource(WEBHOOKS_DS) private readonly ds: DataSource,
    private readonly rpc: RpcClient,
  ) {}

  async allowedOwners(match: MatchInput, repo: WebhookPayloadRepo): Promise<string[]> {
    const repoOwner = ownerIdOf(repo);
    const allowed = repoOwner ? [repoOwner] : [];
    for (const candidate of await DeliveryQueueStore.candidateOwners(this.ds.manager, match)) {
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

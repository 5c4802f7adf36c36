import { Injectable } from '@nestjs/common';
import { HubError, roleGrantsAccess } from '@hub/contracts';
import { OrganizationsRpc } from '@hub/organizations-contract';
import { RpcClient } from '@hub/messaging';
import { type ThreadEvent } from './thread-event';

/**
 * Who may hear of a thread on a private repo (decision 0404), as webhooks decide (0501): the repo's
 * owner (`repo.owner.id`) and members of the organization that owns it whose role opens it (not
 * no_access), asked of the organizations service. Watchers, participants and mentioned users
 * outside that circle get nothing. An organizations service that does not answer fails the event,
 * and the bus brings it back later: no notification is decided on a guess.
 */
@Injectable()
export class PrivateRepoReaders {
  constructor(private readonly rpc: RpcClient) {}

  async filter(e: ThreadEvent, candidates: string[]): Promise<string[]> {
    const readers = e.readers;
    if (!readers) return candidates;
    const allowed: string[] = [];
    for (const userId of candidates) {
      if (userId === readers.ownerId || (await this.isMember(readers.namespace, userId, e.key))) allowed.push(userId);
    }
    return allowed;
  }

  private async isMember(organization: string, userId: string, eventKey: string): Promise<boolean> {
    try {
      const access = await this.rpc.call(
        OrganizationsRpc.GetAccess,
        { organization, userId },
        { requestId: `notifications-${eventKey}`.slice(0, 100) },
      );
      return roleGrantsAccess(access.role);
    } catch (err) {
      // 404: a user's namespace, not an organization; 400: not even a valid organization name.
      if (err instanceof HubError && (err.status === 404 || err.status === 400)) return false;
      throw err;
    }
  }
}

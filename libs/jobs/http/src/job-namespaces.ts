import { Injectable } from '@nestjs/common';
import { ForbiddenError, HubError, NotFoundError, type RequestContext, roleGrantsAccess } from '@hub/contracts';
import { type JobOwnerRef } from '@hub/jobs-contract';
import { type AuthInfo } from '@hub/credentials-contract';
import { MembershipDirectory } from '@hub/service-gateway';

const WRITE_ROLES: ReadonlySet<string> = new Set(['admin', 'write', 'contributor']);

/**
 * The namespace of a jobs route: the caller's own name, or an organization the caller belongs
 * to (writes need a role that may write; a read token never gets here with a write: the
 * authenticator refuses it on anything but GET, HEAD and OPTIONS). Anything else is answered 404,
 * like a missing job.
 */
@Injectable()
export class JobNamespaces {
  constructor(private readonly directory: MembershipDirectory) {}

  async resolve(namespace: string, auth: AuthInfo, ctx: RequestContext, write: boolean): Promise<JobOwnerRef> {
    if (namespace.toLowerCase() === auth.user.name.toLowerCase())
      return { id: auth.user.id, name: auth.user.name, type: 'user' };
    let access;
    try {
      access = await this.directory.accessTo(namespace, auth.user.id, ctx);
    } catch (e) {
      if (e instanceof HubError && e.status === 404) throw new NotFoundError(`Namespace ${namespace} not found`);
      throw e;
    }
    const org = access.organization;
    if (!roleGrantsAccess(access.role) || auth.revokedOrganizationIds.includes(org.id)) {
      throw new NotFoundError(`Namespace ${namespace} not found`);
    }
    if (write && !WRITE_ROLES.has(access.role))
      throw new ForbiddenError(`Your role in ${org.name} (${access.role}) cannot run or change jobs`);
    return { id: org.id, name: org.name, type: 'org' };
  }
}

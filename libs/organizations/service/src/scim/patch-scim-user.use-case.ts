import { Injectable } from '@nestjs/common';
import { type RequestContext } from '@hub/contracts';
import { type ScimPatchRpc, type ScimUserRecord, ScimRpc } from '@hub/organizations-contract';
import { Outbox, RpcHandler } from '@hub/messaging';
import { changeScimUser } from './change-scim-user';
import { parseScimPatch } from './scim-patch';
import { applyScimUserPatch } from './scim-user.state';

/** PATCH (RFC 7644 3.5.2): the operations applied to the current state, all or none. */
@Injectable()
export class PatchScimUserUseCase {
  constructor(private readonly outbox: Outbox) {}

  @RpcHandler(ScimRpc.PatchUser)
  execute(dto: ScimPatchRpc, ctx: RequestContext): Promise<ScimUserRecord> {
    const ops = parseScimPatch(dto.patch);
    const target = { organization: dto.organization, id: dto.id, ifMatch: dto.ifMatch };
    return changeScimUser(this.outbox, target, ctx, (current) => applyScimUserPatch(current, ops));
  }
}

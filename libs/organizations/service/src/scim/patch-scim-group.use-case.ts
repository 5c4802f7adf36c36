import { Injectable } from '@nestjs/common';
import { type RequestContext } from '@hub/contracts';
import { type ScimGroupRecord, type ScimPatchRpc, ScimRpc } from '@hub/organizations-contract';
import { Outbox, RpcHandler } from '@hub/messaging';
import { changeScimGroup } from './change-scim-group';
import { applyScimGroupPatch } from './scim-group.state';
import { parseScimPatch } from './scim-patch';

/** PATCH (RFC 7644 3.5.2): the operations applied to the current group, all or none. */
@Injectable()
export class PatchScimGroupUseCase {
  constructor(private readonly outbox: Outbox) {}

  @RpcHandler(ScimRpc.PatchGroup)
  execute(dto: ScimPatchRpc, ctx: RequestContext): Promise<ScimGroupRecord> {
    const ops = parseScimPatch(dto.patch);
    const target = { organization: dto.organization, id: dto.id, ifMatch: dto.ifMatch };
    return changeScimGroup(this.outbox, target, ctx, (current) => applyScimGroupPatch(current, ops));
  }
}

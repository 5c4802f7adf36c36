import { Injectable } from '@nestjs/common';
import { type RequestContext } from '@hub/contracts';
import { type ScimGroupRecord, type ScimWriteRpc, ScimRpc } from '@hub/organizations-contract';
import { Outbox, RpcHandler } from '@hub/messaging';
import { changeScimGroup } from './change-scim-group';
import { readScimGroup } from './scim-group.state';

/** PUT: the whole group again, members included. */
@Injectable()
export class ReplaceScimGroupUseCase {
  constructor(private readonly outbox: Outbox) {}

  @RpcHandler(ScimRpc.ReplaceGroup)
  execute(dto: ScimWriteRpc, ctx: RequestContext): Promise<ScimGroupRecord> {
    const input = readScimGroup(dto.resource);
    const target = { organization: dto.organization, id: dto.id ?? '', ifMatch: dto.ifMatch };
    return changeScimGroup(this.outbox, target, ctx, () => input);
  }
}

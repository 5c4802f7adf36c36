import { Injectable } from '@nestjs/common';
import { type RequestContext } from '@hub/contracts';
import { type ScimUserRecord, type ScimWriteRpc, ScimRpc } from '@hub/organizations-contract';
import { Outbox, RpcHandler } from '@hub/messaging';
import { changeScimUser } from './change-scim-user';
import { readScimUser } from './scim-user.state';

/** PUT: the whole resource again; attributes the hub does not keep are ignored. */
@Injectable()
export class ReplaceScimUserUseCase {
  constructor(private readonly outbox: Outbox) {}

  @RpcHandler(ScimRpc.ReplaceUser)
  execute(dto: ScimWriteRpc, ctx: RequestContext): Promise<ScimUserRecord> {
    const target = { organization: dto.organization, id: dto.id ?? '', ifMatch: dto.ifMatch };
    return changeScimUser(this.outbox, target, ctx, () => readScimUser(dto.resource));
  }
}

import { Injectable } from '@nestjs/common';
import { type RequestContext } from '@hub/contracts';
import { CredentialsRpc } from '@hub/credentials-contract';
import { RpcClient } from '@hub/messaging';
import { type JobOwner } from './job.entity';

/** Owner of a namespace named by a caller that does not know it (the webhooks service): a user. */
@Injectable()
export class NamespaceResolver {
  constructor(private readonly rpc: RpcClient) {}

  async resolve(namespace: string, ctx: RequestContext): Promise<JobOwner> {
    const user = await this.rpc.call(CredentialsRpc.GetUser, { name: namespace }, ctx);
    return { id: user.id, name: user.name, type: 'user' };
  }
}

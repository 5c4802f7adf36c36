import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import {
  ApiAcceptedResponse,
  ApiBadRequestResponse,
  ApiOperation,
  ApiTags,
  ApiTooManyRequestsResponse,
} from '@nestjs/swagger';
import { EmptyAnswer, type RequestContext } from '@hub/contracts';
import { CredentialsRpc, RevokeCredentialsDto, tokenHash } from '@hub/credentials-contract';
import { RpcClient } from '@hub/messaging';
import { Ctx, Public, StrictRateLimit, TokenCache } from '@hub/service-gateway';

@ApiTags('auth')
@Controller('api/credentials')
export class LeakedTokensController {
  constructor(
    private readonly rpc: RpcClient,
    private readonly tokens: TokenCache,
  ) {}

  @Post('revoke')
  @Public()
  @StrictRateLimit()
  @HttpCode(202)
  @ApiOperation({
    summary: 'Revoke leaked tokens',
    description:
      'No authentication: holding a token is the proof. Every listed token stops working and its owner is e-mailed. Always 202, whether or not a token existed.',
    security: [],
  })
  @ApiAcceptedResponse({ description: 'Accepted, whatever was listed', type: EmptyAnswer })
  @ApiBadRequestResponse({ description: 'credentials missing, empty, over 1000 items or an item over 200 characters' })
  @ApiTooManyRequestsResponse({ description: 'Too many requests from this address' })
  async revoke(@Body() dto: RevokeCredentialsDto, @Ctx() ctx: RequestContext): Promise<Record<string, never>> {
    // This replica forgets them before answering; the others hear the revocation event.
    for (const c of dto.credentials) this.tokens.delete(tokenHash(c));
    await this.rpc.call(CredentialsRpc.RevokeLeaked, { credentials: dto.credentials }, ctx);
    return {};
  }
}

import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ForbiddenError, type RequestContext } from '@hub/contracts';
import { ClaimPaperDto, ClaimPaperView, PapersRpc } from '@hub/organizations-contract';
import { type AuthInfo } from '@hub/credentials-contract';
import { RpcClient } from '@hub/messaging';
import { ApiErrorResponse, Ctx, CurrentAuth } from '@hub/service-gateway';

@ApiTags('papers')
@ApiBearerAuth()
@Controller('api/settings/papers')
export class PapersController {
  constructor(private readonly rpc: RpcClient) {}

  @Post('claim')
  @HttpCode(200)
  @ApiOperation({ summary: 'Claim an author entry of a paper as yours (once per entry, one entry per paper and user)' })
  @ApiOkResponse({ description: 'Claimed (or already yours)', type: ClaimPaperView })
  @ApiErrorResponse(400, 'paperId or an id malformed')
  @ApiErrorResponse(403, 'targetUserId names another user')
  @ApiErrorResponse(404, 'No such paper or author entry')
  @ApiErrorResponse(409, 'The entry is claimed by another user, or you claimed another entry of this paper')
  claim(
    @Body() dto: ClaimPaperDto,
    @CurrentAuth() auth: AuthInfo,
    @Ctx() ctx: RequestContext,
  ): Promise<ClaimPaperView> {
    // Claims for someone else would let anyone attach papers to any profile (decision 0410).
    if (dto.targetUserId && dto.targetUserId !== auth.user.id)
      throw new ForbiddenError('You can only claim papers for yourself (targetUserId must be your own id)');
    return this.rpc.call(
      PapersRpc.Claim,
      { paperId: dto.paperId, claimAuthorId: dto.claimAuthorId, userId: auth.user.id, userName: auth.user.name },
      ctx,
    );
  }
}

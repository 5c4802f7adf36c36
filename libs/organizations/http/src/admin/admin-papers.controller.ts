import { Body, Controller, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiCreatedResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { type RequestContext } from '@hub/contracts';
import { PapersRpc, PaperView, AdminCreatePaperDto } from '@hub/organizations-contract';
import { RpcClient } from '@hub/messaging';
import { AdminOnly, Ctx } from '@hub/service-gateway';

@ApiTags('admin')
@ApiBearerAuth()
@AdminOnly()
@Controller('admin/papers')
export class AdminPapersController {
  constructor(private readonly rpc: RpcClient) {}

  @Post()
  @ApiOperation({
    summary: 'Add a paper with its author entries, or replace them (claims of entries that stay are kept)',
  })
  @ApiCreatedResponse({ description: 'The paper', type: PaperView })
  create(@Body() dto: AdminCreatePaperDto, @Ctx() ctx: RequestContext): Promise<PaperView> {
    return this.rpc.call(PapersRpc.Upsert, dto, ctx);
  }
}

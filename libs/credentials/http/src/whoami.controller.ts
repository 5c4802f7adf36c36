import { Controller, Get } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { type RequestContext } from '@hub/contracts';
import { type AuthInfo } from '@hub/credentials-contract';
import { Ctx, CurrentAuth, MembershipDirectory } from '@hub/service-gateway';
import { WhoAmI } from './whoami.view';

@ApiTags('auth')
@ApiBearerAuth()
@Controller('api')
export class WhoAmIController {
  constructor(private readonly directory: MembershipDirectory) {}

  @Get('whoami-v2')
  @ApiOperation({ summary: 'The user, organizations and token behind the bearer token' })
  @ApiOkResponse({ description: 'The caller', type: WhoAmI })
  async whoami(@CurrentAuth() auth: AuthInfo, @Ctx() ctx: RequestContext): Promise<WhoAmI> {
    const memberships = await this.directory.membershipsOf(auth.user.id, ctx);
    const { user, token } = auth;
    return {
      type: 'user',
      id: user.id,
      name: user.name,
      fullname: user.fullname,
      email: user.email,
      emailVerified: true,
      avatarUrl: user.avatarUrl,
      isPro: user.isPro,
      // Billing is not this hub's business; the fields keep the public clients' types whole.
      canPay: false,
      periodEnd: null,
      billingMode: 'postpaid',
      orgs: memberships.map((m) => ({
        type: 'org',
        id: m.organization.id,
        name: m.organization.name,
        fullname: m.organization.fullname,
        email: null,
        avatarUrl: m.organization.avatarUrl,
        roleInOrg: m.role,
        plan: m.organization.plan,
        canPay: false,
        periodEnd: null,
      })),
      auth: {
        type: 'access_token',
        accessToken: { displayName: token.displayName, role: token.role, createdAt: token.createdAt },
      },
    };
  }
}

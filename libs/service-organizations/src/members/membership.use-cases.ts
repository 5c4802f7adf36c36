import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource } from 'typeorm';
import {
  type AddMemberRpc,
  type MemberView,
  type OrganizationAccess,
  type RequestContext,
  type UserMembership,
} from '@hub/contracts';
import { Outbox } from '@hub/messaging';
import { preparedQuery } from '@hub/persistence';
import { recordAudit } from '../audit/record-audit';
import { recordMembershipChanged } from './membership-events';
import { OrganizationEntity } from '../organizations/organization.entity';
import { OrganizationNotFoundError } from '../organizations/organizations.errors';
import { MemberEntity } from './member.entity';
import { type OrganizationsConfig } from '../organizations.config';
import { ORGANIZATIONS_CONFIG, ORGANIZATIONS_DS } from '../organizations.tokens';
import { toOrganizationView } from '../organizations/organization.view';
import { toMemberView } from './member.view';

/** Members and roles: the directory that org-scoped authorization reads. */
@Injectable()
export class MembershipUseCases {
  constructor(
    @InjectDataSource(ORGANIZATIONS_DS) private readonly ds: DataSource,
    @Inject(ORGANIZATIONS_CONFIG) private readonly config: OrganizationsConfig,
    private readonly outbox: Outbox,
  ) {}

  private async organization(name: string): Promise<OrganizationEntity> {
    const org = await this.ds.getRepository(OrganizationEntity).findOneBy({ name });
    if (!org) throw new OrganizationNotFoundError(name);
    return org;
  }

  /** Adds a member, or changes the role of an existing one; the change and its events commit together. */
  async add(dto: AddMemberRpc, ctx: RequestContext): Promise<MemberView> {
    const org = await this.organization(dto.organization);
    const member = await this.outbox.transaction(async (m) => {
      const existing = await m.findOneBy(MemberEntity, { organizationId: org.id, userId: dto.user.id });
      await m.upsert(
        MemberEntity,
        { organizationId: org.id, userId: dto.user.id, userName: dto.user.name, role: dto.role },
        ['organizationId', 'userId'],
      );
      if (existing?.role !== dto.role) await recordMembershipChanged(this.outbox, m, org.id, [dto.user.id]);
      if (!existing) {
        await recordAudit(this.outbox, m, ctx, org, 'org.add_user', `${dto.user.name} added as ${dto.role}`, {
          user: dto.user.name,
          role: dto.role,
        });
      } else if (existing.role !== dto.role) {
        await recordAudit(this.outbox, m, ctx, org, 'org.change_role', `${dto.user.name} is now ${dto.role}`, {
          user: dto.user.name,
          from: existing.role,
          to: dto.role,
        });
      }
      return m.findOneByOrFail(MemberEntity, { organizationId: org.id, userId: dto.user.id });
    });
    return toMemberView(member);
  }

  /**
   * One plain query for the organization and its members (no row: no such organization): an
   * uncached read on every request, the one bench:gateway compares with a bare handler; a named
   * prepared statement on Postgres (planned once per connection). Postgres writes addedAt as the ISO string the view carries, rather than node parsing a Date per row
   * and formatting it again.
   */
  async list(organization: string): Promise<MemberView[]> {
    const rows = await preparedQuery<{
      user_id: string | null;
      user_name: string;
      role: MemberView['role'];
      added_at: string;
    }>(
      this.ds,
      'organizations-member-list',
      `SELECT m.user_id, m.user_name, m.role, to_char(m.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS added_at
         FROM organizations.organizations o LEFT JOIN organizations.members m ON m.organization_id = o.id AND NOT m.suspended
        WHERE o.name = $1 ORDER BY m.user_name`,
      [organization],
    );
    if (rows.length === 0) throw new OrganizationNotFoundError(organization);
    return rows.flatMap((r) =>
      r.user_id === null ? [] : [{ userId: r.user_id, user: r.user_name, role: r.role, addedAt: r.added_at }],
    );
  }

  async access(organization: string, userId: string): Promise<OrganizationAccess> {
    const org = await this.organization(organization);
    const member = await this.ds.getRepository(MemberEntity).findOneBy({ organizationId: org.id, userId });
    // A suspended member (SCIM active: false) is no member until the identity provider restores it.
    return {
      organization: toOrganizationView(org, this.config.publicUrl),
      role: member && !member.suspended ? member.role : null,
    };
  }

  /** whoami asks this on every cache miss: one plain query, no entity hydration. */
  async listForUser(userId: string): Promise<UserMembership[]> {
    const rows: {
      id: string;
      name: string;
      fullname: string;
      plan: OrganizationEntity['plan'];
      created_at: Date;
      role: string;
    }[] = await this.ds.query(
      `SELECT o.id, o.name, o.fullname, o.plan, o.created_at, m.role
           FROM organizations.members m JOIN organizations.organizations o ON o.id = m.organization_id
          WHERE m.user_id = $1 AND NOT m.suspended ORDER BY o.name`,
      [userId],
    );
    return rows.map((r) => ({
      organization: toOrganizationView(
        { id: r.id, name: r.name, fullname: r.fullname, plan: r.plan, createdAt: new Date(r.created_at) },
        this.config.publicUrl,
      ),
      role: r.role,
    }));
  }
}

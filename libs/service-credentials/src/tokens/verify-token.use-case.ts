import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource } from 'typeorm';
import { type AuthInfo, avatarUrl, InvalidCredentialsError, type TokenRole } from '@hub/contracts';
import { preparedQuery } from '@hub/persistence';
import { type CredentialsConfig } from '../credentials.config';
import { CREDENTIALS_CONFIG, CREDENTIALS_DS } from '../credentials.tokens';

interface Row {
  token_id: string;
  user_id: string;
  role: TokenRole;
  display_name: string;
  last4: string;
  token_created_at: Date;
  last_used_at: Date | null;
  name: string;
  email: string;
  fullname: string;
  is_pro: boolean;
  user_created_at: Date;
  revoked_orgs: string[] | null;
}

/** Last-used time is written at most once a minute per token: reads stay reads. */
const LAST_USED_RESOLUTION_MS = 60_000;

@Injectable()
export class VerifyTokenUseCase {
  constructor(
    @InjectDataSource(CREDENTIALS_DS) private readonly ds: DataSource,
    @Inject(CREDENTIALS_CONFIG) private readonly config: CredentialsConfig,
  ) {}

  /** `tokenHash`: the token's SHA-256 (hashToken), as the gateway sends it. */
  async execute(tokenHash: string): Promise<AuthInfo> {
    const rows = await preparedQuery<Row>(
      this.ds,
      'hub-credentials-verify-token',
      `SELECT t.id AS token_id, t.user_id, t.role, t.display_name, t.last4, t.created_at AS token_created_at,
              t.last_used_at, u.name, u.email, u.fullname, u.is_pro, u.created_at AS user_created_at,
              (SELECT array_agg(r.organization_id) FROM credentials.org_token_revocations r WHERE r.token_id = t.id) AS revoked_orgs
         FROM credentials.access_tokens t JOIN credentials.users u ON u.id = t.user_id
        WHERE t.token_hash = $1 AND t.revoked_at IS NULL`,
      [tokenHash],
    );
    const r = rows[0];
    if (!r) throw new InvalidCredentialsError();
    const lastUsed = r.last_used_at ? new Date(r.last_used_at) : null;
    if (!lastUsed || Date.now() - lastUsed.getTime() > LAST_USED_RESOLUTION_MS) {
      await this.ds.query(`UPDATE credentials.access_tokens SET last_used_at = now() WHERE id = $1`, [r.token_id]);
    }
    return {
      user: {
        id: r.user_id,
        name: r.name,
        fullname: r.fullname,
        email: r.email,
        avatarUrl: avatarUrl(this.config.publicUrl, r.name),
        isPro: r.is_pro,
        createdAt: new Date(r.user_created_at).toISOString(),
      },
      token: {
        id: r.token_id,
        userId: r.user_id,
        role: r.role,
        displayName: r.display_name,
        last4: r.last4,
        createdAt: new Date(r.token_created_at).toISOString(),
        lastUsedAt: lastUsed ? lastUsed.toISOString() : null,
      },
      revokedOrganizationIds: (r.revoked_orgs ?? []).map((id) => id.trim()),
    };
  }
}

import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource } from 'typeorm';
import { type CreateSessionRpc, InvalidCredentialsError, type SessionInfo, BadRequestError } from '@hub/contracts';
import { CREDENTIALS_DS } from '../credentials.di';
import { VerifyTokenUseCase } from '../tokens/verify-token.use-case';

interface SessionRow {
  token_hash: string | null;
  admin_fingerprint: string | null;
  expires_at: Date;
}

/**
 * Console sessions (decision 0800). Only the SHA-256 of a session id is stored. A user session is
 * exactly as good as its token right now: verifying it verifies the token again, so a revoked
 * token (or a deleted one: the row goes with it) ends every session made from it.
 */
@Injectable()
export class ConsoleSessionsUseCases {
  constructor(
    @InjectDataSource(CREDENTIALS_DS) private readonly ds: DataSource,
    private readonly verifyToken: VerifyTokenUseCase,
  ) {}

  async create(dto: CreateSessionRpc): Promise<SessionInfo> {
    if ((dto.tokenHash === undefined) === (dto.adminFingerprint === undefined))
      throw new BadRequestError('exactly one of tokenHash and adminFingerprint is required');
    const auth = dto.tokenHash ? await this.verifyToken.execute(dto.tokenHash) : null;
    // Ended sessions are swept here, where new ones are made: the table holds live ones and a few more.
    await this.ds.query(`DELETE FROM credentials.console_sessions WHERE expires_at < now()`);
    const rows = await this.ds.query<{ expires_at: Date }[]>(
      `INSERT INTO credentials.console_sessions (session_hash, token_id, admin_fingerprint, expires_at)
       VALUES ($1, $2, $3, now() + make_interval(secs => $4)) RETURNING expires_at`,
      [dto.sessionHash, auth?.token.id ?? null, dto.adminFingerprint ?? null, dto.ttlSeconds],
    );
    return { auth, adminFingerprint: dto.adminFingerprint ?? null, expiresAt: iso(rows[0].expires_at) };
  }

  async verify(sessionHash: string): Promise<SessionInfo> {
    const rows = await this.ds.query<SessionRow[]>(
      `SELECT t.token_hash, s.admin_fingerprint, s.expires_at
         FROM credentials.console_sessions s LEFT JOIN credentials.access_tokens t ON t.id = s.token_id
        WHERE s.session_hash = $1 AND s.expires_at > now()`,
      [sessionHash],
    );
    const row = rows[0];
    if (!row) throw new InvalidCredentialsError();
    if (row.admin_fingerprint)
      return { auth: null, adminFingerprint: row.admin_fingerprint, expiresAt: iso(row.expires_at) };
    if (!row.token_hash) throw new InvalidCredentialsError();
    // Throws 401 when the token was revoked since: the session ends with it.
    const auth = await this.verifyToken.execute(row.token_hash);
    return { auth, adminFingerprint: null, expiresAt: iso(row.expires_at) };
  }

  async end(sessionHash: string): Promise<{ ended: boolean }> {
    const rows = await this.ds.query<unknown[]>(
      `DELETE FROM credentials.console_sessions WHERE session_hash = $1 RETURNING session_hash`,
      [sessionHash],
    );
    return { ended: rows.length > 0 };
  }
}

const iso = (d: Date): string => new Date(d).toISOString();

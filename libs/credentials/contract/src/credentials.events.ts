import { ArrayMaxSize, IsArray, IsISO8601, IsOptional, Matches } from 'class-validator';
import { event, OBJECT_ID_PATTERN } from '@hub/contracts';

/** `hub.credentials.token.revoked`: these tokens stopped working (everywhere, or in one organization). */
export class TokenRevokedEvent {
  @IsArray()
  @ArrayMaxSize(1000)
  @Matches(OBJECT_ID_PATTERN, { each: true })
  tokenIds!: string[];

  /** Set when the revocation is scoped to one organization only. */
  @IsOptional()
  @Matches(OBJECT_ID_PATTERN)
  organizationId?: string;

  @IsISO8601()
  revokedAt!: string;
}

/** Every event the credentials service publishes (its audit events are the shared `Events.Audit`). */
export const CredentialsEvents = {
  TokenRevoked: event<TokenRevokedEvent>('hub.credentials.token.revoked', TokenRevokedEvent),
} as const;

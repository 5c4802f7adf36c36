import { type AuditEventType, type TokenRole } from '../enums';
import { streamName, subject } from './prefix';

/**
 * Event subjects on JetStream. `hub.events.*` are facts from other hub areas (or the admin API),
 * `hub.audit.<type>` audit events, `hub.credentials.token.revoked` drops cached tokens.
 * Payloads are documented in docs/events.md.
 */
export const EventSubjects = {
  TokenRevoked: subject('hub.credentials.token.revoked'),
  MembershipChanged: subject('hub.organizations.membership.changed'),
  AuditPrefix: subject('hub.audit'),
  Audit: (type: string): string => subject(`hub.audit.${type}`),
  HubEventsPrefix: subject('hub.events'),
} as const;

export const Streams = {
  Events: { name: streamName('HUB_EVENTS'), subjects: [subject('hub.events.>')] },
  Audit: { name: streamName('HUB_AUDIT'), subjects: [subject('hub.audit.>')] },
  Credentials: { name: streamName('HUB_CREDENTIALS'), subjects: [subject('hub.credentials.>')] },
  Organizations: { name: streamName('HUB_ORGANIZATIONS'), subjects: [subject('hub.organizations.>')] },
} as const;

export interface TokenRevokedEvent {
  /** Tokens that stopped working everywhere. */
  tokenIds: string[];
  /** Set when the revocation is scoped to one organization only. */
  organizationId?: string;
  revokedAt: string;
}

/** Someone joined an organization or changed role: gateways drop their cached memberships. */
export interface MembershipChangedEvent {
  organizationId: string;
  userIds: string[];
}

/** Published on `hub.audit.<type>`; the organizations service stores it for the org's audit log. */
export interface AuditEventMessage {
  type: AuditEventType;
  organizationId: string;
  organization: string;
  message: string;
  data?: unknown;
  createdAt: string;
  author: { _id: string; user: string; type: 'user' | 'system' };
  token?: { id: string; role?: TokenRole };
  ip?: string;
  userAgent?: string;
}

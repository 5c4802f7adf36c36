import { AccessTokenEntity } from './tokens/access-token.entity';
import { EmailOutboxEntity } from './mail/email-outbox.entity';
import { OrgTokenRevocationEntity } from './tokens/org-token-revocation.entity';
import { UserEntity } from './users/user.entity';

export { AccessTokenEntity, EmailOutboxEntity, OrgTokenRevocationEntity, UserEntity };
export const CREDENTIALS_ENTITIES = [UserEntity, AccessTokenEntity, OrgTokenRevocationEntity, EmailOutboxEntity];

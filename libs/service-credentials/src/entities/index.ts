import { AccessTokenEntity } from './access-token.entity';
import { EmailOutboxEntity } from './email-outbox.entity';
import { OrgTokenRevocationEntity } from './org-token-revocation.entity';
import { UserEntity } from './user.entity';

export { AccessTokenEntity, EmailOutboxEntity, OrgTokenRevocationEntity, UserEntity };
export const CREDENTIALS_ENTITIES = [UserEntity, AccessTokenEntity, OrgTokenRevocationEntity, EmailOutboxEntity];

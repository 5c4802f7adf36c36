import { AccessTokenEntity } from './tokens/access-token.entity';
import { AccountNameEntity } from './names/account-name.entity';
import { EmailOutboxEntity } from './mail/email-outbox.entity';
import { OrgTokenRevocationEntity } from './tokens/org-token-revocation.entity';
import { UserEntity } from './users/user.entity';

export { AccessTokenEntity, AccountNameEntity, EmailOutboxEntity, OrgTokenRevocationEntity, UserEntity };
export const CREDENTIALS_ENTITIES = [
  UserEntity,
  AccessTokenEntity,
  OrgTokenRevocationEntity,
  EmailOutboxEntity,
  AccountNameEntity,
];

import { AccessTokenEntity } from './tokens/access-token.entity';
import { UserEntity } from './users/user.entity';

export { AccessTokenEntity, UserEntity };
/**
 * The tables the code reads through TypeORM repositories. The others (account_names,
 * org_token_revocations, email_outbox, outbox) are written with SQL by their stores and the
 * shared mailer; their shape is the migrations'.
 */
export const CREDENTIALS_ENTITIES = [UserEntity, AccessTokenEntity];

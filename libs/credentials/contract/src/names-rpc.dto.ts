import { IsIn, Matches } from 'class-validator';
import { NAME_PATTERN, OBJECT_ID_PATTERN } from '@hub/contracts';

export const ACCOUNT_KINDS = ['user', 'organization'] as const;
export type AccountKind = (typeof ACCOUNT_KINDS)[number];

/**
 * Users and organizations share one case-insensitive name space, kept by the credentials
 * service (decision 0009): organizations reserves an organization's name here before creating it.
 */
export class ReserveNameRpc {
  @Matches(NAME_PATTERN, { message: 'name is not a valid user or organization name' })
  name!: string;

  @IsIn(ACCOUNT_KINDS)
  kind!: AccountKind;

  /** The id of the user or organization; reserving the same name for the same owner again is a no-op. */
  @Matches(OBJECT_ID_PATTERN)
  ownerId!: string;
}

export class ReleaseNameRpc {
  @Matches(OBJECT_ID_PATTERN)
  ownerId!: string;
}

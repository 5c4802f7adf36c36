import { ApiProperty } from '@nestjs/swagger';
import { Matches } from 'class-validator';
import { OBJECT_ID_PATTERN } from '@hub/contracts';
import { ScimResourceNotFoundError } from '@hub/organizations-contract';
import { OrgNameParam } from '@hub/service-gateway';

/** A SCIM resource id; anything else cannot exist (404, as RFC 7644 3.4.1 answers an unknown id). */
export class ScimIdParam extends OrgNameParam {
  @ApiProperty()
  @Matches(/^.{1,100}$/, { message: 'id must be 1..100 characters' })
  id!: string;
}

/** The id to ask the service about: one that is not an object id names no resource. */
export function scimId(id: string, kind: 'User' | 'Group'): string {
  if (!OBJECT_ID_PATTERN.test(id)) throw new ScimResourceNotFoundError(kind, id.slice(0, 100));
  return id;
}

import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ClosedSchema } from '@hub/contracts';

/** RFC 7644 3.12: every SCIM failure, with the same text in X-Error-Message. */
@ClosedSchema()
export class ScimErrorBody {
  @ApiProperty({ type: [String], example: ['urn:ietf:params:scim:api:messages:2.0:Error'] })
  schemas!: string[];

  @ApiProperty({ description: 'the HTTP status, as a string', example: '409' })
  status!: string;

  @ApiPropertyOptional({
    enum: [
      'invalidFilter',
      'tooMany',
      'uniqueness',
      'mutability',
      'invalidSyntax',
      'invalidPath',
      'noTarget',
      'invalidValue',
      'invalidVers',
      'sensitive',
    ],
  })
  scimType?: string;

  @ApiProperty({ description: 'what went wrong, naming the attribute or cause' })
  detail!: string;
}

class ScimMeta {
  @ApiProperty({ enum: ['User', 'Group'] }) resourceType!: string;
  @ApiProperty({ format: 'date-time' }) created!: string;
  @ApiProperty({ format: 'date-time' }) lastModified!: string;
  @ApiProperty({ format: 'uri' }) location!: string;
  @ApiProperty({ example: 'W/"3"' }) version!: string;
}

class ScimName {
  @ApiPropertyOptional() givenName?: string;
  @ApiPropertyOptional() familyName?: string;
}

class ScimEmail {
  @ApiProperty({ format: 'email' }) value!: string;
  @ApiProperty() primary!: boolean;
}

/** A SCIM User (spec 5.7's attributes); `attributes`/`excludedAttributes` may leave any but schemas and id out. */
export class ScimUserView {
  @ApiProperty({ type: [String] }) schemas!: string[];
  @ApiProperty({ pattern: '^[0-9a-f]{24}$' }) id!: string;
  @ApiPropertyOptional() externalId?: string;
  @ApiPropertyOptional() userName?: string;
  @ApiPropertyOptional({ type: ScimName }) name?: ScimName;
  @ApiPropertyOptional({ type: [ScimEmail] }) emails?: ScimEmail[];
  @ApiPropertyOptional() active?: boolean;
  @ApiPropertyOptional({ type: ScimMeta }) meta?: ScimMeta;
}

class ScimMember {
  @ApiProperty({ description: 'the SCIM id of the user' }) value!: string;
  @ApiProperty({ description: 'its userName' }) display!: string;
  @ApiProperty({ format: 'uri' }) $ref!: string;
}

/** A SCIM Group: a resource group of the organization. */
export class ScimGroupView {
  @ApiProperty({ type: [String] }) schemas!: string[];
  @ApiProperty({ pattern: '^[0-9a-f]{24}$', description: 'the resource group id' }) id!: string;
  @ApiPropertyOptional() externalId?: string;
  @ApiPropertyOptional() displayName?: string;
  @ApiPropertyOptional({ type: [ScimMember] }) members?: ScimMember[];
  @ApiPropertyOptional({ type: ScimMeta }) meta?: ScimMeta;
}

export class ScimListView {
  @ApiProperty({ type: [String] }) schemas!: string[];
  @ApiProperty() totalResults!: number;
  @ApiProperty() startIndex!: number;
  @ApiProperty() itemsPerPage!: number;
  @ApiProperty({ type: 'array', items: { type: 'object' } }) Resources!: Record<string, unknown>[];
}

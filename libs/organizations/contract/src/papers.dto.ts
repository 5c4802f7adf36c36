import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsOptional, IsString, Matches } from 'class-validator';
import { ClosedSchema, NAME_PATTERN, OBJECT_ID_PATTERN, rpc } from '@hub/contracts';
import { AdminCreatePaperDto, PAPER_ID_PATTERN } from './paper.events';

const ANY_CASE_ID = /^[0-9a-fA-F]{24}$/;
/** Ids are accepted in either case and kept in lower case. */
const lower = ({ value }: { value: unknown }): unknown => (typeof value === 'string' ? value.toLowerCase() : value);

/** `POST /api/settings/papers/claim` (spec 4.3). */
export class ClaimPaperDto {
  @ApiProperty({ pattern: PAPER_ID_PATTERN.source, example: '2401.01234' })
  @Matches(PAPER_ID_PATTERN, { message: 'paperId must look like 2401.01234' })
  @IsString({ message: 'paperId must be a string' })
  paperId!: string;

  @ApiProperty({ pattern: ANY_CASE_ID.source, description: 'the author entry of the paper to claim' })
  @Transform(lower)
  @Matches(OBJECT_ID_PATTERN, { message: 'claimAuthorId must be a 24-character hexadecimal id' })
  @IsString({ message: 'claimAuthorId must be a string' })
  claimAuthorId!: string;

  @ApiPropertyOptional({
    pattern: ANY_CASE_ID.source,
    description: 'the user who receives the claim (the caller when left out)',
  })
  @IsOptional()
  @Transform(lower)
  @Matches(OBJECT_ID_PATTERN, { message: 'targetUserId must be a 24-character hexadecimal id' })
  @IsString({ message: 'targetUserId must be a string' })
  targetUserId?: string;
}

@ClosedSchema()
export class ClaimPaperView {
  @ApiProperty() ok!: boolean;
  @ApiProperty() claimedPaperId!: string;
}

export class PaperAuthorView {
  @ApiProperty({ pattern: OBJECT_ID_PATTERN.source }) _id!: string;
  @ApiProperty() name!: string;
  @ApiPropertyOptional({ description: 'user name of whoever claimed this entry' }) claimedBy?: string;
}

@ClosedSchema()
export class PaperView {
  @ApiProperty() id!: string;
  @ApiProperty() title!: string;
  @ApiProperty({ type: [PaperAuthorView] }) authors!: PaperAuthorView[];
}

export class ClaimPaperRpc extends ClaimPaperDto {
  /** The caller. */
  @Matches(OBJECT_ID_PATTERN) userId!: string;
  @Matches(NAME_PATTERN) userName!: string;
}

/** Papers and claims of their author entries. */
export const PapersRpc = {
  Upsert: rpc<AdminCreatePaperDto, PaperView>('organizations.paper.upsert', AdminCreatePaperDto),
  Claim: rpc<ClaimPaperRpc, ClaimPaperView>('organizations.paper.claim', ClaimPaperRpc),
} as const;

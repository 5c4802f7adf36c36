import { Type } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsOptional, IsString, Matches, Min, ValidateNested } from 'class-validator';
import { REPO_TYPES, type RepoType } from '../enums';
import { REPO_ID_PATTERN } from '../names';
import { eventFamily } from './descriptors';

/** The repository of a `hub.events.repo.*` event (webhook payload v3 `repo`), the fields the catalogue reads. */
export class RepoEventRepo {
  @IsIn(REPO_TYPES)
  type!: RepoType;

  @Matches(REPO_ID_PATTERN) @IsString()
  name!: string;

  @IsOptional() @IsBoolean()
  private?: boolean;

  /** Bytes used, when the publisher knows it. */
  @IsOptional() @IsInt() @Min(0)
  storage?: number;
}

export class RepoEventAction {
  /** create, delete, move, update … */
  @IsString()
  action!: string;

  @IsOptional() @IsString()
  scope?: string;
}

export class RepoEventMovedTo {
  @Matches(REPO_ID_PATTERN) @IsString()
  name!: string;
}

/**
 * `hub.events.repo.<…>` as the organizations' repository catalogue reads it (the webhook payload
 * v3 shape; other fields pass through unread).
 */
export class RepoEventPayload {
  @ValidateNested() @Type(() => RepoEventAction)
  event!: RepoEventAction;

  @ValidateNested() @Type(() => RepoEventRepo)
  repo!: RepoEventRepo;

  @IsOptional() @ValidateNested() @Type(() => RepoEventMovedTo)
  movedTo?: RepoEventMovedTo;
}

export const RepoEvents = eventFamily<RepoEventPayload>('hub.events.repo', RepoEventPayload);

import { Type } from 'class-transformer';
import { IsObject, IsString, Matches, ValidateNested } from 'class-validator';
import { eventFamily, REPO_ID_PATTERN } from '@hub/contracts';
import { WebhookPayloadRepo, WebhookPayloadV3 } from '@hub/webhooks-contract';

/** The catalogue keeps only repository ids the hub could have made (owner and name rules). */
export class RepoEventRepo extends WebhookPayloadRepo {
  // Both patterns, as the released contract states them (allOf): the payload's own, and ours.
  @Matches(/^[^/\s]+\/[^/\s]+$/, { message: 'repo.name must be owner/name' })
  @Matches(REPO_ID_PATTERN, { message: 'repo.name must be owner/name' })
  @IsString({ message: 'repo.name must be owner/name' })
  declare name: string;
}

/**
 * `hub.events.repo.<…>` as the organizations' repository catalogue reads it: the webhook payload
 * v3 (decision 0501), every member checked the same way, with the stricter repository name the
 * released bus contract already had for this channel (docs/asyncapi/released.json, decision 0701).
 */
export class RepoEventPayload extends WebhookPayloadV3 {
  @IsObject()
  @ValidateNested()
  @Type(() => RepoEventRepo)
  declare repo: RepoEventRepo;
}

export const RepoEvents = eventFamily<RepoEventPayload>('hub.events.repo', RepoEventPayload);

import { Type } from 'class-transformer';
import { ValidateNested } from 'class-validator';
import { AdminCreatePaperDto } from '../organizations/papers.dto';
import { event } from './descriptors';

/**
 * `hub.events.paper.create`: a paper with its author entries (as `POST /admin/papers`), what the
 * organizations service's paper catalogue reads. Activity on a paper (`hub.events.paper.comment`)
 * is another subject with another payload, read by notifications.
 */
export class PaperRecordEventPayload {
  @ValidateNested()
  @Type(() => AdminCreatePaperDto)
  paper!: AdminCreatePaperDto;
}

export const PaperEvents = {
  Create: event<PaperRecordEventPayload>('hub.events.paper.create', PaperRecordEventPayload),
} as const;

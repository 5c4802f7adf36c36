import { Type } from 'class-transformer';
import { ValidateNested } from 'class-validator';
import { AdminCreatePaperDto } from '../organizations/papers.dto';
import { eventFamily } from './descriptors';

/** `hub.events.paper.<…>` as organizations reads it: the paper with its author entries (as `POST /admin/papers`). */
export class PaperEventPayload {
  @ValidateNested() @Type(() => AdminCreatePaperDto)
  paper!: AdminCreatePaperDto;
}

export const PaperEvents = eventFamily<PaperEventPayload>('hub.events.paper', PaperEventPayload);

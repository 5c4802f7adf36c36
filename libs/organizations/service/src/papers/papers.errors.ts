import { ConflictError, NotFoundError } from '@hub/contracts';

export class PaperNotFoundError extends NotFoundError {
  constructor(id: string) {
    super(`Paper ${id} not found`, 'PAPER_NOT_FOUND');
  }
}

export class PaperAuthorNotFoundError extends NotFoundError {
  constructor(paper: string, author: string) {
    super(`Paper ${paper} has no author entry ${author}`, 'PAPER_AUTHOR_NOT_FOUND');
  }
}

export class PaperAuthorClaimedError extends ConflictError {
  constructor(paper: string, author: string) {
    super(`Author entry ${author} of paper ${paper} is already claimed by another user`, 'PAPER_AUTHOR_CLAIMED');
  }
}

export class PaperAlreadyClaimedError extends ConflictError {
  constructor(paper: string) {
    super(`This user already claimed another author entry of paper ${paper}`, 'PAPER_ALREADY_CLAIMED');
  }
}

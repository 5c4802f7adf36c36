import { BadRequestError, ConflictError, NotFoundError } from '@hub/contracts';

/** A job of another namespace answers the same, so ids cannot be probed across namespaces. */
export class JobNotFoundError extends NotFoundError {
  constructor(jobId: string, namespace?: string) {
    super(namespace ? `Job ${jobId} not found in ${namespace}` : `Job ${jobId} not found`, 'JOB_NOT_FOUND');
  }
}

/** `prefix`: where the job object sits (`jobSpec.` for a scheduled job). */
export class JobImageSourceError extends BadRequestError {
  constructor(prefix = '') {
    super(`Exactly one of ${prefix}dockerImage and ${prefix}spaceId must be given`, 'JOB_IMAGE_SOURCE');
  }
}

/** A dockerImage whose registry decision 0623 refuses (internal address, this hub's own name). */
export class ImageRegistryRefusedError extends BadRequestError {
  constructor(reason: string, prefix = '') {
    super(
      `${prefix}dockerImage is refused: ${reason} (an operator may allow it with HUB_JOBS_ALLOWED_REGISTRIES)`,
      'JOB_IMAGE_REGISTRY_REFUSED',
    );
  }
}

export class JobCommandRequiredError extends BadRequestError {
  constructor(prefix = '') {
    super(
      `${prefix}command is required: the runners of this hub do not read an image's entrypoint`,
      'JOB_COMMAND_REQUIRED',
    );
  }
}

export class PublicPortsNotExposedError extends BadRequestError {
  constructor() {
    super('expose.portsPublic must be a subset of expose.ports', 'JOB_PUBLIC_PORTS');
  }
}

/** A flavor this runner's machine cannot give (GPU, more vCPUs or memory than it has): the runner says what. */
export class FlavorNotAvailableError extends BadRequestError {
  constructor(reason: string) {
    super(reason, 'JOB_FLAVOR_NOT_AVAILABLE');
  }
}

/** A resourceGroupId the job's namespace does not own (decision 0014): 400 naming the field. */
export class ForeignResourceGroupError extends BadRequestError {
  constructor(field: string, id: string, namespace: string) {
    super(`${field} ${id} is not a resource group of ${namespace}`, 'FOREIGN_RESOURCE_GROUP');
  }
}

export class LabelFilterError extends BadRequestError {
  constructor(filter: string) {
    super(`label filter "${filter}" must be key=value`, 'JOB_LABEL_FILTER');
  }
}

export class ScheduledJobNotFoundError extends NotFoundError {
  constructor(scheduledJobId: string, namespace: string) {
    super(`Scheduled job ${scheduledJobId} not found in ${namespace}`, 'SCHEDULED_JOB_NOT_FOUND');
  }
}

/** Run-now of a scheduled job with `concurrency: false` while its previous run is active. */
export class PreviousRunActiveError extends ConflictError {
  constructor(scheduledJobId: string) {
    super(
      `The previous run of scheduled job ${scheduledJobId} is still going (concurrency is off)`,
      'SCHEDULED_JOB_RUN_ACTIVE',
    );
  }
}

/** A schedule that does not parse, never fires, or fires more often than allowed (the cron parser's message). */
export class ScheduleError extends BadRequestError {
  constructor(message: string) {
    super(message, 'SCHEDULE_INVALID');
  }
}

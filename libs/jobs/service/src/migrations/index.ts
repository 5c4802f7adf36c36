import { type SecretBox } from '@hub/config';
import { CreateJobs1764000100000 } from './1764000100000-create-jobs';
import { CreateScheduledJobs1764000200000 } from './1764000200000-create-scheduled-jobs';
import { encryptJobSecrets } from './1764000300000-encrypt-job-secrets';
import { JobRunHandle1764000400000 } from './1764000400000-job-run-handle';
import { JobLogChunks1764000500000 } from './1764000500000-job-log-chunks';
import { JobLogsView1797000200000 } from './1797000200000-job-logs-view';

/** In order. Never edit one that has landed; add a new one (style.md rule 7). The secrets one needs the service's key. */
export function jobsMigrations(box: SecretBox): (new () => unknown)[] {
  return [
    CreateJobs1764000100000,
    CreateScheduledJobs1764000200000,
    encryptJobSecrets(box),
    JobRunHandle1764000400000,
    JobLogChunks1764000500000,
    JobLogsView1797000200000,
  ];
}

import { type JobStatusEvent, type WebhookSuspendedEvent } from '@hub/contracts';

export interface MailText {
  subject: string;
  body: string;
}

export function webhookSuspendedMail(e: WebhookSuspendedEvent, publicUrl: string): MailText {
  return {
    subject: `Your webhook ${e.webhookId} was suspended`,
    body: [
      `Deliveries to your webhook ${e.webhookId}${e.url ? ` (${e.url})` : ''} kept failing, so it was suspended on ${e.suspendedAt}.`,
      ...(e.reason ? [`Last error: ${e.reason}`] : []),
      `Fix the receiver, then enable the webhook again: ${publicUrl}/settings/webhooks`,
    ].join('\n\n'),
  };
}

export function jobStatusMail(e: JobStatusEvent, publicUrl: string): MailText {
  return {
    subject: `Job ${e.jobId} is ${e.stage}`,
    body: [
      `Your job ${e.jobId} moved to ${e.stage} at ${e.at}.`,
      ...(e.message ? [e.message] : []),
      `Details: ${publicUrl}/jobs/${e.namespace}/${e.jobId}`,
      'You get these mails because job_status is on in your notification settings.',
    ].join('\n\n'),
  };
}

import { type JobStatusEvent } from '@hub/jobs-contract';
import { type AuditStreamHealthEvent } from '@hub/organizations-contract';
import { type WebhookSuspendedEvent } from '@hub/webhooks-contract';

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

export function auditStreamHealthMail(e: AuditStreamHealthEvent, publicUrl: string): MailText {
  const where = `${publicUrl}/api/organizations/${e.organization}/audit-log/streams/${e.streamId}/deliveries`;
  if (e.state === 'active') {
    return {
      subject: `The audit log stream ${e.streamId} of ${e.organization} delivers again`,
      body: [
        `The ${e.type} audit log stream ${e.streamId} of ${e.organization} delivered again at ${e.at}; the events it held back are being sent in order.`,
        `Its delivery log: ${where}`,
      ].join('\n\n'),
    };
  }
  return {
    subject: `The audit log stream ${e.streamId} of ${e.organization} is failing`,
    body: [
      `The ${e.type} audit log stream ${e.streamId} of ${e.organization} has not delivered since it started failing; it is marked failing as of ${e.at}.`,
      ...(e.error ? [`Last error: ${e.error}`] : []),
      'It keeps retrying and keeps the events it could not send up to its retention window (HUB_AUDIT_STREAM_RETENTION_DAYS); fix the destination or its credentials and it catches up by itself.',
      `The stream and its delivery log: ${where}`,
    ].join('\n\n'),
  };
}

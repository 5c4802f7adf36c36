import { HubError, isErrorEnvelope, ServiceUnavailableError, TimeoutError } from '@hub/contracts';

/** The service is the first part of a subject `<prefix>.<service>.<resource>.<verb>`. */
export function serviceOf(pattern: string): string {
  const parts = pattern.split('.');
  return parts.length >= 3 ? (parts[parts.length - 3] ?? pattern) : pattern;
}

/** Maps whatever a call failed with to a HubError, so the gateway can answer with a status. */
export function toHubError(error: unknown, pattern: string): HubError {
  if (error instanceof HubError) return error;
  if (isErrorEnvelope(error)) return HubError.fromEnvelope(error);
  const service = serviceOf(pattern);
  const e = error as { code?: unknown; name?: unknown; message?: unknown } | null;
  const code = String(e?.code ?? '');
  const name = String(e?.name ?? '');
  if (code === 'TIMEOUT' || name === 'TimeoutError') {
    return new TimeoutError(`The ${service} service did not answer in time`);
  }
  if (code === '503' || name === 'EmptyResponseException' || code === 'NO_SUBSCRIBERS') {
    return new ServiceUnavailableError(`The ${service} service is not available`);
  }
  return new HubError('INTERNAL', 500, `The ${service} service failed`);
}

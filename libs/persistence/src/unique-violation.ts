/**
 * Postgres' unique violation (SQLSTATE 23505) with the constraint it hit, or null for any other
 * error. Reads the driver error TypeORM wraps (QueryFailedError.driverError), so it also works on
 * an error that crossed a transaction callback.
 */
export function uniqueViolation(e: unknown): { constraint: string } | null {
  const d = (e as { driverError?: { code?: unknown; constraint?: unknown } } | null)?.driverError;
  if (d?.code !== '23505') return null;
  return { constraint: typeof d.constraint === 'string' ? d.constraint : '' };
}

export function isUniqueViolation(e: unknown): boolean {
  return uniqueViolation(e) !== null;
}

/**
 * TypeORM's Postgres driver answers UPDATE/DELETE … RETURNING as `[rows, affectedCount]` and
 * everything else as the rows: this gives the rows either way.
 */
export function rowsOf<T>(result: unknown): T[] {
  if (Array.isArray(result) && result.length === 2 && Array.isArray(result[0]) && typeof result[1] === 'number')
    return result[0] as T[];
  return result as T[];
}

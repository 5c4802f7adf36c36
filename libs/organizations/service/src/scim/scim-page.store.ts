import { type EntityManager } from 'typeorm';
import { type ScimListRpc as ScimListQuery } from '@hub/organizations-contract';
import { compileScimFilter, type ScimAttributes, scimSortExpression } from './scim-filter';

/** The count and page statements both SCIM lists share (`ScimUsersStore.list`, `ScimGroupsStore.list`, RFC 7644 3.4.2). */
export const ScimPageStore = {
  /**
   * One page from `table`: `where` (on `values`) narrowed by the query's filter, its sortBy and
   * sortOrder (then creation order), startIndex and count, and the total the filter matches. A
   * count of 0 asks only for the total.
   */
  async page<Row>(
    m: EntityManager,
    o: { table: string; columns: string; where: string; values: unknown[]; attributes: ScimAttributes },
    q: ScimListQuery,
  ): Promise<{ total: number; rows: Row[] }> {
    const values = [...o.values];
    const where = `${o.where} AND ${compileScimFilter(q.filter, o.attributes, values)}`;
    const sort = scimSortExpression(q.sortBy, o.attributes);
    const order = sort
      ? `${sort} ${q.sortOrder === 'descending' ? 'DESC' : 'ASC'} NULLS LAST, created_at, id`
      : 'created_at, id';
    const [total] = (await m.query(`SELECT count(*)::int AS n FROM ${o.table} WHERE ${where}`, values)) as {
      n: number;
    }[];
    const rows =
      q.count === 0
        ? []
        : ((await m.query(
            `SELECT ${o.columns} FROM ${o.table} WHERE ${where} ORDER BY ${order} OFFSET $${values.length + 1} LIMIT $${values.length + 2}`,
            [...values, q.startIndex - 1, q.count],
          )) as Row[]);
    return { total: total?.n ?? 0, rows };
  },
};

// Run by bench/webhooks/search.mjs (`node -r @swc-node/register`): the delivery log store's own SQL
// for each filter, first page then the page after, each statement under EXPLAIN (ANALYZE, BUFFERS),
// ROUNDS times; prints per filter the median and max of a page's summed Execution Times. Unlike the
// API's percentiles these leave out the wait for a core on a busy machine. VERBOSE=1 prints the plans
// of the first round. Environment: DB (database URL), WEBHOOK (id), FILTERS (JSON: label → filter).
import * as pg from 'pg';
import { DeliveryLogStore } from '../../libs/webhooks/service/src/delivery/delivery-log.store';

async function main(): Promise<void> {
  const c = new pg.Client({ connectionString: process.env.DB });
  await c.connect();
  let spent = 0;
  let verbose = process.env.VERBOSE === '1';
  const m = {
    query: async (sql: string, args: unknown[] = []): Promise<unknown[]> => {
      if (/^(SET|EXPLAIN)/.test(sql)) return (await c.query(sql, args)).rows;
      const lines = (await c.query(`EXPLAIN (ANALYZE, BUFFERS) ${sql}`, args)).rows.map(
        (r: Record<string, string>) => r['QUERY PLAN'],
      );
      spent += Number(/Execution Time: ([\d.]+)/.exec(lines[lines.length - 1])?.[1] ?? NaN);
      if (verbose) console.log(`${sql}\n${lines.join('\n')}\n`);
      return (await c.query(sql, args)).rows;
    },
  };
  const ds = {
    transaction: async (work: (manager: typeof m) => Promise<unknown>): Promise<unknown> => {
      await c.query('BEGIN');
      try {
        return await work(m);
      } finally {
        await c.query('COMMIT');
      }
    },
  };
  const page = (cursor: string | undefined, filter: Record<string, string | number>) =>
    ds.transaction((tx) =>
      DeliveryLogStore.page(tx as never, process.env.WEBHOOK as string, 20, cursor, filter),
    ) as ReturnType<typeof DeliveryLogStore.page>;
  const filters = JSON.parse(process.env.FILTERS ?? '{}') as Record<string, Record<string, string | number>>;
  const summary: Record<string, { medianMs: number; maxMs: number }> = {};
  for (const [label, filter] of Object.entries(filters)) {
    const pages: number[] = [];
    for (let round = 0; round < Number(process.env.ROUNDS ?? 5); round++) {
      spent = 0;
      const first = await page(undefined, filter);
      pages.push(spent);
      spent = 0;
      if (first.next !== undefined) await page(first.next, filter);
      pages.push(spent);
      verbose = false;
    }
    pages.sort((a, b) => a - b);
    summary[label] = {
      medianMs: +pages[Math.floor(pages.length / 2)].toFixed(2),
      maxMs: +pages[pages.length - 1].toFixed(2),
    };
  }
  console.log(JSON.stringify({ explainAnalyzeExecutionMsPerPage: summary }, null, 1));
  await c.end();
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});

import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type FastifyInstance } from 'fastify';
import { createTestDatabase, type TestDatabase } from '@hub/testing';
import { createHub, type Hub } from '../create-hub';

export interface TestHub {
  hub: Hub;
  db: TestDatabase;
  fastify: FastifyInstance;
  /** Set when started with listen: true. */
  baseUrl: string;
  close(): Promise<void>;
}

/** The all-in-one hub on a fresh Postgres database, for one test file. */
export async function startTestHub(env: Record<string, string>, options: { listen?: boolean } = {}): Promise<TestHub> {
  const db = await createTestDatabase();
  const hub = await createHub({
    DATABASE_URL: db.url,
    HUB_MIGRATE_ON_START: 'true',
    HUB_DATA_DIR: mkdtempSync(join(tmpdir(), 'hub-test-')),
    LOG_LEVEL: 'fatal',
    ...env,
  });
  let baseUrl = '';
  if (options.listen) {
    await hub.app.listen(0, '127.0.0.1');
    baseUrl = await hub.app.getUrl();
  } else {
    await hub.app.init();
  }
  const fastify = hub.app.getHttpAdapter().getInstance() as FastifyInstance;
  await fastify.ready();
  return {
    hub,
    db,
    fastify,
    baseUrl,
    async close() {
      await hub.app.close();
      await db.drop();
    },
  };
}

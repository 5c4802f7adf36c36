// Seeds the notifications schema with SQL (1,000,000 notifications over 1,000 users), as the
// service would have written them: threads with their shared part, one row per user and thread.
import pg from 'pg';

export async function withClient(url, fn) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** Thread i: a repo discussion (3 of 4) or a post; participants are two synthetic users. */
const THREAD_SQL = `
  INSERT INTO notifications.threads (id, type, repo_type, repo_name, post_author, item, participants, participant_ids, mentioned_ids)
  SELECT lpad(to_hex($1::bigint + i), 24, '0'),
         CASE WHEN i % 4 = 3 THEN 'post' ELSE 'repo' END,
         CASE WHEN i % 4 = 3 THEN NULL WHEN i % 4 = 0 THEN 'dataset' ELSE 'model' END,
         CASE WHEN i % 4 = 3 THEN NULL ELSE 'org' || (i % 50) || '/repo' || (i % 500) END,
         CASE WHEN i % 4 = 3 THEN 'author' || (i % 100) ELSE NULL END,
         CASE WHEN i % 4 = 3
           THEN jsonb_build_object('post', jsonb_build_object('id', lpad(to_hex($1::bigint + i), 24, '0'), 'slug', 'post-' || i, 'authorName', 'author' || (i % 100), 'title', 'Post ' || i))
           ELSE jsonb_build_object('repo', jsonb_build_object('name', 'org' || (i % 50) || '/repo' || (i % 500), 'type', CASE WHEN i % 4 = 0 THEN 'dataset' ELSE 'model' END),
                                   'discussion', jsonb_build_object('num', i, 'title', 'Discussion ' || i, 'status', 'open', 'id', lpad(to_hex($1::bigint + i), 24, '0'), 'isPullRequest', i % 2 = 0))
         END,
         jsonb_build_array(jsonb_build_object('_id', 'a00000000000000000000001', 'avatar', 'https://avatars.example/a.png', 'user', 'alice')),
         ARRAY['a00000000000000000000001']::bpchar[], '{}'
    FROM generate_series(0, $2::int - 1) AS i`;

/**
 * Every listed user gets `perUser` notifications on consecutive threads (offset by the user's
 * index so users share threads), a quarter unread, spread over the last days.
 */
const NOTIFICATION_SQL = `
  INSERT INTO notifications.notifications (user_id, thread_id, read, updated_at, discussion_event_id)
  SELECT u.id, lpad(to_hex($2::bigint + ((u.n * 97 + k) % $4::int)), 24, '0'), k % 4 <> 0,
         now() - (k || ' seconds')::interval - (u.n || ' milliseconds')::interval, 'ev' || k
    FROM unnest($1::bpchar[]) WITH ORDINALITY AS u(id, n), generate_series(0, $3::int - 1) AS k`;

export async function seedInboxes(url, { threadBase, threads, users, perUser }) {
  await withClient(url, async (c) => {
    await c.query(THREAD_SQL, [threadBase, threads]);
    // In slices of 50 users: one statement per slice keeps memory small.
    for (let i = 0; i < users.length; i += 50) {
      await c.query(NOTIFICATION_SQL, [users.slice(i, i + 50), threadBase, perUser, threads]);
    }
    await c.query(
      'INSERT INTO notifications.inbox_state (user_id, version) SELECT u, 1 FROM unnest($1::bpchar[]) AS u ON CONFLICT DO NOTHING',
      [users],
    );
    await c.query('ANALYZE notifications.notifications');
    await c.query('ANALYZE notifications.threads');
  });
}

export async function seedWatchers(url, { repo, watchers }) {
  await withClient(url, (c) =>
    c.query(
      `INSERT INTO notifications.watches (user_id, type, target) SELECT u, 'repo', $2 FROM unnest($1::bpchar[]) AS u`,
      [watchers, repo],
    ),
  );
}

export async function countForThreads(url, threadIds) {
  return withClient(url, async (c) =>
    Number(
      (
        await c.query('SELECT count(*) AS n FROM notifications.notifications WHERE thread_id = ANY($1::bpchar[])', [
          threadIds,
        ])
      ).rows[0].n,
    ),
  );
}

/** Users whose inbox_state counts differ from a recount of their rows (must be none). */
export async function countsDisagreeing(url) {
  return withClient(url, async (c) =>
    Number(
      (
        await c.query(`
    SELECT count(*) AS n FROM notifications.inbox_state s
      LEFT JOIN (SELECT user_id, count(*) AS total, count(*) FILTER (WHERE NOT read) AS unread FROM notifications.notifications GROUP BY user_id) r
        ON r.user_id = s.user_id
     WHERE s.total <> coalesce(r.total, 0) OR s.unread <> coalesce(r.unread, 0)`)
      ).rows[0].n,
    ),
  );
}

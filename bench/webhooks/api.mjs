// The hub's HTTP API as the webhooks benches call it: a bearer token, JSON both ways, a 3xx or
// worse thrown with its body.

/** The answer's JSON and its Link header (the next page of a log). */
export async function request(base, method, path, token, body) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body && JSON.stringify(body),
  });
  const json = await res.json().catch(() => ({}));
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
  return { json, link: res.headers.get('link') };
}

export async function api(base, method, path, token, body) {
  return (await request(base, method, path, token, body)).json;
}

/** The body of `POST /admin/events` for a repo update of `repo` (owner `ownerId`) named by `action`. */
export function repoUpdateEvent(repo, ownerId, action) {
  return {
    subject: 'hub.events.repo.update',
    payload: {
      event: { action, scope: 'repo.content' },
      repo: {
        type: 'model',
        name: repo,
        id: '0123456789abcdef01234567',
        private: false,
        url: { web: 'x', api: 'y' },
        owner: { id: ownerId },
      },
    },
  };
}

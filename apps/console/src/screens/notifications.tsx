import { useEffect, useState } from 'preact/hooks';
import { api, websiteUrl } from '../api';
import { useConfirm } from '../confirm';
import { go, type Route } from '../router';
import { Screen, setUnread, Status, useAction, useLoad, when } from '../ui';
import { pageOf } from './notification-links';

interface Participant {
  user: string;
}
interface Item {
  type: 'repo' | 'paper' | 'post' | 'community_blog';
  updatedAt: string;
  read: boolean;
  repo?: { name: string; type: string };
  discussion?: {
    id: string;
    title: string;
    num: number;
    status: string;
    isPullRequest: boolean;
    participating: Participant[];
  };
  paper?: { _id: string; title: string };
  paperDiscussion?: { id: string; participating: Participant[] };
  post?: { id: string; slug: string; title: string; authorName: string; participating: Participant[] };
  blog?: { id: string; slug: string; title: string; authorName?: string; participating: Participant[] };
}
interface Inbox {
  notifications: Item[];
  count: { view: number; unread: number; all: number };
  start: number;
}

/** Spec 4.1's filters, kept in the URL. */
const FILTERS = ['readStatus', 'repoType', 'repoName', 'mention', 'p'] as const;

const idOf = (n: Item): string => n.discussion?.id ?? n.paperDiscussion?.id ?? n.post?.id ?? n.blog?.id ?? '';
const titleOf = (n: Item): string =>
  n.discussion
    ? `${n.repo?.name ?? ''} #${n.discussion.num}: ${n.discussion.title}`
    : (n.paper?.title ?? n.post?.title ?? n.blog?.title ?? n.type);

/** What it is: "Pull request · merged", "Discussion · open", "Paper", "Post by alice". */
function kindOf(n: Item): { kind: string; cls: string } {
  if (n.discussion)
    return n.discussion.isPullRequest
      ? { kind: `Pull request · ${n.discussion.status}`, cls: `pr ${n.discussion.status}` }
      : { kind: `Discussion · ${n.discussion.status}`, cls: `discussion ${n.discussion.status}` };
  if (n.paper) return { kind: 'Paper', cls: 'paper' };
  if (n.post) return { kind: 'Post', cls: 'post' };
  return { kind: 'Blog article', cls: 'blog' };
}

/** Who acted: the people taking part, as the item lists them (an author first). */
function whoOf(n: Item): string[] {
  const people = (n.discussion ?? n.paperDiscussion ?? n.post ?? n.blog)?.participating ?? [];
  const author = n.post?.authorName ?? n.blog?.authorName;
  return [...new Set([...(author ? [author] : []), ...people.map((p) => p.user)])];
}

export function Notifications(props: { route: Route }): preact.JSX.Element {
  const q = props.route.query;
  const filters = Object.fromEntries(FILTERS.map((k) => [k, q.get(k) ?? undefined]));
  const query = new URLSearchParams(Object.entries(filters).filter((e): e is [string, string] => !!e[1])).toString();
  const inbox = useLoad(() => api<Inbox>('GET', `/api/notifications${query ? `?${query}` : ''}`), [query]);
  const action = useAction();
  // The hub's website, where each item links to (none when the hub has no website set).
  const [site, setSite] = useState<string | null>(null);
  useEffect(() => {
    void websiteUrl().then(setSite);
  }, []);
  // Checked items (their ids), for the bulk actions; an item gone from the page is unchecked.
  const [picked, setPicked] = useState<ReadonlySet<string>>(new Set());
  const shown = new Set(inbox.data?.notifications.map(idOf) ?? []);
  const selected = [...picked].filter((id) => shown.has(id));
  const pick = (id: string, on: boolean): void => {
    const next = new Set(picked);
    if (on) next.add(id);
    else next.delete(id);
    setPicked(next);
  };
  useEffect(() => {
    if (inbox.data) setUnread(inbox.data.count.unread);
  }, [inbox.data?.count.unread]);
  // The unread count and the list follow the inbox: polled with its ETag, so an unchanged inbox is a 304.
  useEffect(() => {
    const timer = setInterval(inbox.reload, 5000);
    return () => clearInterval(timer);
  }, [inbox.reload]);

  const set = (key: string, value: string): void => go('/notifications', { ...filters, [key]: value, p: undefined });
  const mark = (ids: string[], read: boolean, all = false): Promise<void> =>
    action.run(
      async () => {
        await api('POST', `/api/notifications/mark-as-read?${all ? `applyToAll=true&${query}` : ''}`, {
          discussionIds: all ? undefined : ids,
          read,
        });
        inbox.reload();
      },
      read ? 'Marked read' : 'Marked unread',
    );
  const confirm = useConfirm();
  const removeAll = async (): Promise<void> => {
    const n = inbox.data?.count.view ?? 0;
    const filtered = Object.entries(filters).some(([k, v]) => k !== 'p' && v);
    const sure = await confirm.ask({
      title: filtered ? `Delete ${n} matching notifications?` : `Delete your whole inbox (${n} notifications)?`,
      body: filtered
        ? `Every notification matching the filters above is deleted (${n} now, not only this page). This cannot be undone.`
        : `No filter is set, so this deletes every notification you have (${n}), not only this page. This cannot be undone.`,
      confirm: filtered ? `Delete ${n} notifications` : 'Delete the whole inbox',
    });
    if (sure) await remove([], true);
  };
  const removeSelected = async (): Promise<void> => {
    const n = selected.length;
    const sure =
      n === 1 ||
      (await confirm.ask({
        title: `Delete ${n} selected notifications?`,
        body: `The ${n} notifications checked on this page are deleted. This cannot be undone.`,
        confirm: `Delete ${n} notifications`,
      }));
    if (!sure) return;
    await remove(selected);
    setPicked(new Set());
  };
  const remove = (ids: string[], all = false): Promise<void> =>
    action.run(async () => {
      await api(
        'DELETE',
        `/api/notifications?${all ? `applyToAll=true&${query}` : ''}`,
        all ? undefined : { discussionIds: ids },
      );
      inbox.reload();
    }, 'Deleted');

  const data = inbox.data;
  return (
    <Screen title="Notifications">
      <p aria-live="polite" class="count">
        {data ? `${data.count.unread} unread of ${data.count.all}` : ''}
      </p>
      <form class="filters" onSubmit={(e) => e.preventDefault()}>
        <label>
          Read status
          <select value={filters.readStatus ?? ''} onChange={(e) => set('readStatus', e.currentTarget.value)}>
            <option value="">all</option>
            <option value="unread">unread</option>
          </select>
        </label>
        <label>
          Repository type
          <select value={filters.repoType ?? ''} onChange={(e) => set('repoType', e.currentTarget.value)}>
            <option value="">any</option>
            <option value="model">model</option>
            <option value="dataset">dataset</option>
            <option value="space">space</option>
          </select>
        </label>
        <label>
          Repository
          <input
            value={filters.repoName ?? ''}
            placeholder="owner/name"
            onChange={(e) => set('repoName', e.currentTarget.value)}
          />
        </label>
        <label>
          Mentions
          <select value={filters.mention ?? ''} onChange={(e) => set('mention', e.currentTarget.value)}>
            <option value="">all</option>
            <option value="participating">participating</option>
            <option value="mentions">mentions</option>
          </select>
        </label>
      </form>
      <div class="actions" role="group" aria-label="Checked notifications">
        <label class="inline">
          <input
            type="checkbox"
            checked={shown.size > 0 && selected.length === shown.size}
            disabled={shown.size === 0}
            onChange={(e) => setPicked(e.currentTarget.checked ? new Set(shown) : new Set())}
          />{' '}
          Check all on this page
        </label>
        <button type="button" disabled={action.busy || !selected.length} onClick={() => void mark(selected, true)}>
          Mark checked read
        </button>
        <button type="button" disabled={action.busy || !selected.length} onClick={() => void mark(selected, false)}>
          Mark checked unread
        </button>
        <button type="button" disabled={action.busy || !selected.length} onClick={() => void removeSelected()}>
          Delete checked
        </button>
        <span class="meta">{selected.length ? `${selected.length} checked` : ''}</span>
      </div>
      <div class="actions">
        <button type="button" disabled={action.busy} onClick={() => void mark([], true, true)}>
          Mark all matching read
        </button>
        <button type="button" disabled={action.busy || !data?.count.view} onClick={() => void removeAll()}>
          Delete all matching
        </button>
      </div>
      {confirm.dialog}
      <Status error={action.error ?? inbox.error} message={action.message} />
      {data && data.notifications.length === 0 && <p>No notifications.</p>}
      <ul class="items">
        {data?.notifications.map((n) => (
          <li key={idOf(n)} class={n.read ? 'read' : 'unread'}>
            <input
              type="checkbox"
              aria-label={`Check ${titleOf(n)}`}
              checked={picked.has(idOf(n))}
              onChange={(e) => pick(idOf(n), e.currentTarget.checked)}
            />
            <Title n={n} href={pageOf(site, n)} />
            <span class={`kind ${kindOf(n).cls}`}>{kindOf(n).kind}</span>
            <span class="meta">
              {whoOf(n).length ? `${whoOf(n).join(', ')} · ` : ''}
              {n.read ? 'read' : 'unread'} · {when(n.updatedAt)}
            </span>
            <button type="button" disabled={action.busy} onClick={() => void mark([idOf(n)], !n.read)}>
              {n.read ? 'Mark unread' : 'Mark read'}
              <span class="sr-only"> {titleOf(n)}</span>
            </button>
            <button type="button" disabled={action.busy} onClick={() => void remove([idOf(n)])}>
              Delete<span class="sr-only"> {titleOf(n)}</span>
            </button>
          </li>
        ))}
      </ul>
      {data && data.count.view > data.start + data.notifications.length && (
        <a
          href={`#/notifications?${new URLSearchParams({ ...clean(filters), p: String(Number(filters.p ?? 0) + 1) })}`}
        >
          Next page
        </a>
      )}
    </Screen>
  );
}

/** The item's title, a link to its page on the hub's website (a new tab) when there is one. */
function Title(props: { n: Item; href: string | null }): preact.JSX.Element {
  const title = titleOf(props.n);
  if (!props.href) return <span class="title">{title}</span>;
  return (
    <a class="title" href={props.href} target="_blank" rel="noopener noreferrer">
      {title}
      <span class="sr-only"> (opens in a new tab)</span>
    </a>
  );
}

function clean(o: Record<string, string | undefined>): Record<string, string> {
  return Object.fromEntries(Object.entries(o).filter((e): e is [string, string] => !!e[1]));
}

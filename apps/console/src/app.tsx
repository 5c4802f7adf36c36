import { useEffect, useState } from 'preact/hooks';
import { currentSession, type Session, signOut, useSession } from './api';
import { api } from './api';
import { href, useRoute } from './router';
import { setUnread, useUnread } from './ui';
import { JobPage } from './screens/job-page';
import { Jobs } from './screens/jobs';
import { Notifications } from './screens/notifications';
import { Operator } from './screens/operator';
import { Organizations } from './screens/organizations';
import { ScheduledJobs } from './screens/scheduled-jobs';
import { SettingsScreen } from './screens/settings';
import { SignIn } from './screens/sign-in';
import { WebhookPage } from './screens/webhook-page';
import { Webhooks } from './screens/webhooks';

const USER_LINKS = [
  ['/notifications', 'Notifications'],
  ['/settings', 'Settings'],
  ['/webhooks', 'Webhooks'],
  ['/jobs', 'Jobs'],
  ['/scheduled-jobs', 'Scheduled jobs'],
  ['/organizations', 'Organizations'],
] as const;

/** While the inbox is not on screen, its unread count is read every 15 s for the menu's badge. */
const UNREAD_EVERY_MS = 15_000;

function useUnreadBadge(on: boolean, inboxShown: boolean): number | null {
  const n = useUnread();
  useEffect(() => {
    if (!on) return setUnread(null);
    if (inboxShown) return;
    const read = (): void =>
      void api<{ count: { unread: number } }>('GET', '/api/notifications?readStatus=unread').then(
        (a) => setUnread(a.count.unread),
        () => undefined,
      );
    read();
    const t = setInterval(read, UNREAD_EVERY_MS);
    return () => clearInterval(t);
  }, [on, inboxShown]);
  return n;
}

export function App(): preact.JSX.Element {
  const [session, setSession] = useState<Session | null | undefined>(undefined);
  const [notice, setNotice] = useState<string>();
  const route = useRoute();
  useSession(session ?? null, () => {
    setSession(null);
    setNotice('Your session has ended; sign in again.');
  });
  useEffect(() => {
    currentSession().then(setSession, () => setSession(null));
  }, []);

  const isUser = session?.kind === 'user';
  const unread = useUnreadBadge(isUser, route.path === '/notifications' || route.path === '/');
  if (session === undefined) return <main id="main">Loading…</main>;
  if (session === null)
    return (
      <main id="main">
        <SignIn
          notice={notice}
          onSignedIn={(s) => {
            setNotice(undefined);
            setSession(s);
            location.hash = s.kind === 'operator' ? '#/operator' : '#/notifications';
          }}
        />
      </main>
    );
  const links = session.kind === 'operator' ? ([['/operator', 'Operator']] as const) : USER_LINKS;
  const end = (): void => {
    void signOut().finally(() => {
      setSession(null);
      setNotice('Signed out.');
    });
  };
  return (
    <>
      <header>
        <nav aria-label="Console">
          <ul>
            {links.map(([path, name]) => (
              <li key={path}>
                <a href={href(path)} aria-current={route.path.startsWith(path) ? 'page' : undefined}>
                  {name}
                  {path === '/notifications' && !!unread && (
                    <span class="badge">
                      {unread}
                      <span class="sr-only"> unread</span>
                    </span>
                  )}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <span class="who">{session.user ? session.user.name : 'operator'}</span>
        <button type="button" onClick={end}>
          Sign out
        </button>
      </header>
      <main id="main">{screen(session, route)}</main>
    </>
  );
}

function screen(session: Session, route: ReturnType<typeof useRoute>): preact.JSX.Element {
  if (session.kind === 'operator') return <Operator route={route} />;
  const webhook = /^\/webhooks\/([0-9a-f]{24})$/.exec(route.path);
  // A key per id: going from one webhook or job to another starts the page afresh (its state, its
  // streams closed), never the previous one's data with the next one's appended.
  if (webhook) return <WebhookPage key={webhook[1]} id={webhook[1]} route={route} />;
  if (route.path === '/webhooks') return <Webhooks />;
  const job = /^\/jobs\/([^/]+)\/([^/]+)$/.exec(route.path);
  if (job) return <JobPage key={`${job[1]}/${job[2]}`} namespace={job[1]} id={job[2]} />;
  if (route.path === '/jobs') return <Jobs route={route} />;
  if (route.path === '/scheduled-jobs') return <ScheduledJobs />;
  if (route.path === '/organizations') return <Organizations route={route} />;
  if (route.path === '/settings') return <SettingsScreen />;
  return <Notifications route={route} />;
}

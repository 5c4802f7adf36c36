import { http } from '../http-client';
import { type HubTarget, type TestUser, uniqueName } from '../hub-factory';

export type NotificationItemBody = Record<string, unknown> & {
  type: string;
  updatedAt: string;
  read: boolean;
  discussionEventId?: string;
};
export interface InboxBody {
  notifications: NotificationItemBody[];
  count: { view: number; unread: number; all: number };
  start: number;
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** The calls every notifications scenario makes: a page of the inbox, waiting for events to land, a fresh repo name. */
export function inboxClient(t: () => HubTarget): {
  inbox: (
    u: TestUser,
    query?: string,
    headers?: Record<string, string>,
  ) => Promise<{ status: number; headers: Headers; body: InboxBody }>;
  waitForAll: (u: TestUser, all: number) => Promise<InboxBody>;
  repoName: (owner: TestUser) => string;
} {
  const inbox = async (
    u: TestUser,
    query = '',
    headers: Record<string, string> = {},
  ): Promise<{ status: number; headers: Headers; body: InboxBody }> =>
    http<InboxBody>(t().baseUrl, 'GET', `/api/notifications${query}`, { token: u.token, headers });
  /** Events arrive asynchronously: poll until the inbox holds `all` notifications. */
  const waitForAll = async (u: TestUser, all: number): Promise<InboxBody> => {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const res = await inbox(u);
      if (res.status !== 200) throw new Error(`GET /api/notifications answered ${res.status}`);
      if (res.body.count.all >= all || Date.now() > deadline) return res.body;
      await sleep(50);
    }
  };
  return { inbox, waitForAll, repoName: (owner) => `${owner.name}/${uniqueName('repo')}` };
}

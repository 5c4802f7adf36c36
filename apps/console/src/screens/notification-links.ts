// Where a notification's page is on the hub's website (decision 0808), from the fields spec 2.6
// gives the item: the shapes the public hub uses. Each name is encoded segment by segment.

export interface LinkedItem {
  repo?: { name: string; type: string };
  discussion?: { num: number };
  paper?: { _id: string };
  post?: { slug: string; authorName: string };
  blog?: { slug: string; authorName?: string };
}

const PREFIX: Record<string, string> = { model: '', dataset: 'datasets/', space: 'spaces/' };

const path = (...segments: string[]): string => segments.map(encodeURIComponent).join('/');

/** `{site}/{''|datasets/|spaces/}{owner}/{name}/discussions/{num}`, `{site}/papers/{id}`, `{site}/posts/{author}/{slug}`, `{site}/blog/{author}/{slug}`; null without a site or a known shape. */
export function pageOf(site: string | null, n: LinkedItem): string | null {
  if (!site || !/^https?:\/\//i.test(site)) return null;
  if (n.repo && n.discussion) {
    const prefix = PREFIX[n.repo.type];
    if (prefix === undefined) return null;
    return `${site}/${prefix}${path(...n.repo.name.split('/'))}/discussions/${n.discussion.num}`;
  }
  if (n.paper) return `${site}/papers/${path(n.paper._id)}`;
  if (n.post) return `${site}/posts/${path(n.post.authorName, n.post.slug)}`;
  if (n.blog) return `${site}/blog/${n.blog.authorName ? path(n.blog.authorName, n.blog.slug) : path(n.blog.slug)}`;
  return null;
}

import { NAME_PATTERN } from '@hub/contracts';

/** The organization part of a managed name is cut to this, so the directory's part keeps room. */
const ORG_PART = 40;
const MAX = 96;

/**
 * The part of a managed account's hub name that comes from the identity provider's userName
 * (decision 0421): the text before the last "@" (e-mail and UPN forms), accents dropped, lower
 * case, every run of characters a hub name cannot hold turned into one "-", "-" "_" "." trimmed at
 * both ends; "user" when nothing is left.
 */
export function managedNameBase(userName: string): string {
  const at = userName.lastIndexOf('@');
  const local = at > 0 ? userName.slice(0, at) : userName;
  const ascii = local
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();
  const cleaned = ascii
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/[-_.]{2,}/g, (run) => run[0] ?? '-')
    .replace(/^[-_.]+|[-_.]+$/g, '');
  return cleaned === '' ? 'user' : cleaned;
}

/**
 * The hub name of a managed account, `<base>_<organization>` as GitHub's managed users are
 * `<handle>_<shortcode>`; `attempt` > 1 adds `-<attempt>` to the base when the name is taken.
 */
export function managedName(userName: string, organization: string, attempt = 1): string {
  const org = organization.slice(0, ORG_PART).replace(/[-_.]+$/, '');
  const suffix = attempt > 1 ? `-${attempt}` : '';
  const room = MAX - org.length - 1 - suffix.length;
  const base =
    managedNameBase(userName)
      .slice(0, room)
      .replace(/[-_.]+$/, '') || 'user';
  const name = `${base}${suffix}_${org}`;
  if (!NAME_PATTERN.test(name)) throw new Error(`derived name ${name} breaks the name rules`);
  return name;
}

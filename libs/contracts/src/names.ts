/** User and organization names: letters, digits, '-', '_' and '.', starting and ending with a letter or digit. */
export const NAME_PATTERN = /^[a-zA-Z0-9](?:[a-zA-Z0-9._-]{0,94}[a-zA-Z0-9])?$/;
export const NAME_RULE = '1..96 letters, digits, "-", "_" or ".", starting and ending with a letter or digit';

/** A repository id, owner/name. */
export const REPO_ID_PATTERN =
  /^[a-zA-Z0-9](?:[a-zA-Z0-9._-]{0,94}[a-zA-Z0-9])?\/[a-zA-Z0-9](?:[a-zA-Z0-9._-]{0,94}[a-zA-Z0-9])?$/;

export const OBJECT_ID_PATTERN = /^[0-9a-f]{24}$/;

/** A member's role: a built-in one (admin, write, contributor, read, no_access) or a custom role's name. */
export const ROLE_PATTERN = /^[a-zA-Z0-9][a-zA-Z0-9 _-]{0,49}$/;

/** Access tokens: the fixed prefix, then 34 base62 characters. */
export const TOKEN_PREFIX = 'hf_';
export const TOKEN_PATTERN = /^hf_[A-Za-z0-9]{34}$/;

/** Users and organizations share one avatar namespace: `<public url>/avatars/<name>.svg`. */
export function avatarUrl(publicUrl: string, name: string): string {
  return `${publicUrl.replace(/\/$/, '')}/avatars/${encodeURIComponent(name)}.svg`;
}

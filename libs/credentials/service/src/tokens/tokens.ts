import { randomInt } from 'node:crypto';
import { TOKEN_PREFIX } from '@hub/contracts';

const BASE62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** `hf_` + 34 base62 characters from the CSPRNG (about 202 bits). Stored only as its `tokenHash` (@hub/contracts). */
export function generateToken(): string {
  let body = '';
  for (let i = 0; i < 34; i++) body += BASE62[randomInt(62)];
  return TOKEN_PREFIX + body;
}

import { type FastifyReply, type FastifyRequest } from 'fastify';
import { EdgeError } from './json-body';

/** A NUL, or a UTF-16 surrogate not in a pair (JSON's "\ud800" escape makes one). */
const SUSPECT = /[\0\uD800-\uDFFF]/;
const UNPAIRED = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function flaw(text: string): string | null {
  if (!SUSPECT.test(text)) return null;
  if (text.includes('\0')) return 'a NUL character';
  return UNPAIRED.test(text) ? 'an unpaired UTF-16 surrogate (not valid Unicode)' : null;
}

const PLAIN_KEY = /^[A-Za-z_$][\w$-]*$/;

function join(path: string, key: string): string {
  const part = PLAIN_KEY.test(key) ? key : JSON.stringify(key);
  return path === '' ? part : PLAIN_KEY.test(key) ? `${path}.${part}` : `${path}[${part}]`;
}

/**
 * The first string (or object key) in a parsed body, query or path that holds a NUL or an unpaired
 * surrogate, as a message naming its path (`command[0] must not contain a NUL character`); null
 * when there is none. Postgres stores neither (a NUL in text is an error, a lone surrogate cannot
 * be encoded as UTF-8), so such a value got a 500 from whichever service took it (issue 22).
 */
export function findBadText(value: unknown, path = ''): string | null {
  if (typeof value === 'string') {
    const what = flaw(value);
    return what ? `${path || 'Request body'} must not contain ${what}` : null;
  }
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findBadText(value[i], `${path}[${i}]`);
      if (found) return found;
    }
    return null;
  }
  if (typeof value === 'object' && value !== null && !ArrayBuffer.isView(value)) {
    for (const key of Object.keys(value)) {
      const what = flaw(key);
      if (what) return `${path ? `A key in ${path}` : 'A key of the request body'} must not contain ${what}`;
      const found = findBadText((value as Record<string, unknown>)[key], join(path, key));
      if (found) return found;
    }
  }
  return null;
}

/**
 * Fastify's preValidation hook (after the body is parsed, before the handler, on every route):
 * every string of the query, the path and the body is checked once here rather than by each DTO.
 */
export function refuseBadText(req: FastifyRequest, _reply: FastifyReply, done: (err?: Error) => void): void {
  const found = findBadText(req.query) ?? findBadText(req.params) ?? findBadText(req.body);
  done(found ? new EdgeError(400, 'BAD_TEXT', found) : undefined);
}

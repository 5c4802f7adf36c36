import { type FastifyInstance, type FastifyRequest } from 'fastify';

/** Deeper bodies are refused before parsing: the validation pipe recurses once per level. */
export const JSON_MAX_DEPTH = 32;

/** A 4xx that the error filter turns into `{"error": message}` (it reads statusCode and message). */
export class EdgeError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** True when arrays/objects nest deeper than `max`; strings are skipped, so brackets in them do not count. */
export function jsonNestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}

/** The charset parameter of a Content-Type, lower-cased and unquoted; undefined when there is none. */
export function charsetOf(contentType: string | undefined): string | undefined {
  const match = /;\s*charset\s*=\s*("?)([^";\s]*)\1/i.exec(contentType ?? '');
  return match ? match[2].toLowerCase() : undefined;
}

const UTF8 = new Set(['utf-8', 'utf8']);
// fatal: bytes that are not UTF-8 throw instead of becoming U+FFFD. Without `stream` each decode starts afresh.
const decoder = new TextDecoder('utf-8', { fatal: true });

/**
 * The body as text: JSON is UTF-8 (RFC 8259 8.1), so another declared charset is a 415 naming it
 * and bytes that are not UTF-8 a 400 (Fastify's string reading replaced them, and then
 * answered that the body's size did not match its Content-Length).
 */
export function bodyText(contentType: string | undefined, body: Buffer): string {
  const charset = charsetOf(contentType);
  if (charset !== undefined && !UTF8.has(charset)) {
    throw new EdgeError(
      415,
      'UNSUPPORTED_CHARSET',
      `Request body charset "${charset.slice(0, 40)}" is not supported: send JSON in UTF-8`,
    );
  }
  try {
    return decoder.decode(body);
  } catch {
    throw new EdgeError(400, 'BODY_NOT_UTF8', 'Request body is not valid UTF-8 JSON');
  }
}

/**
 * application/json with a depth bound, and a message naming the problem: Fastify's own parser
 * (secure-json-parse, which refuses prototype keys) otherwise answers every refusal "not valid JSON".
 */
export function registerJsonParser(fastify: FastifyInstance): void {
  const standard = fastify.getDefaultJsonParser('error', 'error');
  // Fastify's parser drops the cause; parsing again without the prototype checks tells it.
  const lenient = fastify.getDefaultJsonParser('ignore', 'ignore');
  // SCIM clients (Okta, Entra ID) send application/scim+json (RFC 7644 3.1): the same JSON, the same rules.
  fastify.addContentTypeParser(
    ['application/json', 'application/scim+json'],
    { parseAs: 'buffer' },
    (req: FastifyRequest, body: string | Buffer, done) => {
      let text: string;
      try {
        text = typeof body === 'string' ? body : bodyText(req.headers['content-type'], body);
      } catch (e) {
        return done(e as EdgeError, undefined);
      }
      // `@huggingface/hub` posts cancel and duplicate with this content type and no body: no body, not an error
      // (routes that need one still answer "Request body must be a JSON object").
      if (text.length === 0) return done(null, undefined);
      if (jsonNestsDeeperThan(text, JSON_MAX_DEPTH)) {
        done(
          new EdgeError(
            400,
            'JSON_TOO_DEEP',
            `Request body nests objects or arrays deeper than ${JSON_MAX_DEPTH} levels`,
          ),
          undefined,
        );
        return;
      }
      standard(req, text, (err, value) => {
        if (!err) return done(null, value);
        lenient(req, text, (invalid) => {
          if (invalid) return done(err, undefined);
          const proto = text.includes('"__proto__"');
          done(
            new EdgeError(
              400,
              proto ? 'JSON_PROTO_KEY' : 'JSON_CONSTRUCTOR_KEY',
              proto
                ? 'Request body must not contain a "__proto__" key'
                : 'Request body must not contain a "constructor" key holding "prototype"',
            ),
            undefined,
          );
        });
      });
    },
  );
}

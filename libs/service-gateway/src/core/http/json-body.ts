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
      if (c === 0x5c) i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
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
  fastify.addContentTypeParser(['application/json', 'application/scim+json'], { parseAs: 'string' }, (req: FastifyRequest, body: string | Buffer, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    // `@huggingface/hub` posts cancel and duplicate with this content type and no body: no body, not an error
    // (routes that need one still answer "Request body must be a JSON object").
    if (text.length === 0) return done(null, undefined);
    if (jsonNestsDeeperThan(text, JSON_MAX_DEPTH)) {
      done(new EdgeError(400, 'JSON_TOO_DEEP', `Request body nests objects or arrays deeper than ${JSON_MAX_DEPTH} levels`), undefined);
      return;
    }
    standard(req, text, (err, value) => {
      if (!err) return done(null, value);
      lenient(req, text, (invalid) => {
        if (invalid) return done(err, undefined);
        const proto = text.includes('"__proto__"');
        done(new EdgeError(400, proto ? 'JSON_PROTO_KEY' : 'JSON_CONSTRUCTOR_KEY', proto
          ? 'Request body must not contain a "__proto__" key'
          : 'Request body must not contain a "constructor" key holding "prototype"'), undefined);
      });
    });
  });
}

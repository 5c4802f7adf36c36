import { type FastifyReply, type FastifyRequest } from 'fastify';

/** The `Link` header of a paged list, as the OpenAPI document declares it on the 200. */
export const LINK_HEADER = {
  Link: {
    description: '`<url>; rel="next"` when there is another page (the public clients follow it)',
    schema: { type: 'string' },
  },
} as const;

/** The same URL with the next page's cursor: absolute, so that clients can follow it as it is. */
export function nextLink(req: FastifyRequest, cursor: string): string {
  const url = new URL(req.url, `${req.protocol}://${req.host}`);
  url.searchParams.set('cursor', cursor);
  return `<${url.toString()}>; rel="next"`;
}

/** A page's items, its cursor (if another page follows) set as the `Link: rel="next"` header. */
export function pagedAnswer<T>(req: FastifyRequest, reply: FastifyReply, page: { items: T[]; next?: string }): T[] {
  if (page.next) void reply.header('link', nextLink(req, page.next));
  return page.items;
}

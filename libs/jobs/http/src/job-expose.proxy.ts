import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { request as httpRequest } from 'node:http';
import { HubError, NotFoundError, ServiceUnavailableError, UnauthorizedError } from '@hub/contracts';
import { JobsRpc } from '@hub/jobs-contract';
import { RpcClient } from '@hub/messaging';
import { Authenticator, contextOf, GATEWAY_CONFIG, type GatewayConfig, ReadOnlyTokenError } from '@hub/service-gateway';
import { jobRequestHeaders, HOP_BY_HOP } from './job-expose.headers';
import { JobNamespaces } from './job-namespaces';

const NO_RULES = { admin: false, public: false, strictRateLimit: false, org: undefined };

/**
 * A job's exposed port through the gateway (issue 25): a request whose Host is
 * `<job_id>--<port>.<HUB_JOBS_DOMAIN>` goes to that port of the running job's container, whatever
 * its path. A port in `portsPublic` is open to anyone; any other needs a token with read access to
 * the job's namespace. The caller's credentials (its token, cookies, the console's CSRF header) never
 * reach the job, on any port (job-expose.headers.ts). HTTP only: upgrades (WebSocket) are not.
 */
@Injectable()
export class JobExposeProxy implements OnModuleInit {
  private readonly host: RegExp;

  constructor(
    private readonly adapter: HttpAdapterHost,
    private readonly rpc: RpcClient,
    private readonly auth: Authenticator,
    private readonly namespaces: JobNamespaces,
    @Inject(GATEWAY_CONFIG) config: GatewayConfig,
  ) {
    const domain = config.HUB_JOBS_DOMAIN.replace(/\./g, '\\.');
    this.host = new RegExp(`^([0-9a-f]{24})--([0-9]{1,5})\\.${domain}\\.?(?::[0-9]{1,5})?$`, 'i');
  }

  onModuleInit(): void {
    const fastify = this.adapter.httpAdapter.getInstance<FastifyInstance>();
    fastify.addHook('onRequest', async (req, reply) => {
      const m = this.host.exec(req.headers.host ?? '');
      if (!m) return;
      try {
        await this.forward(req, reply, (m[1] as string).toLowerCase(), Number(m[2]));
      } catch (e) {
        const status = e instanceof HubError ? e.status : 502;
        const error = e instanceof HubError ? e.message : 'the job could not be reached';
        if (!reply.sent && !reply.raw.headersSent) return reply.code(status).send({ error });
      }
      return reply;
    });
  }

  private async forward(req: FastifyRequest, reply: FastifyReply, jobId: string, port: number): Promise<void> {
    if (port < 1 || port > 65535) throw new NotFoundError(`Job ${jobId} does not expose port ${port}`);
    const ctx = contextOf(req);
    const endpoint = await this.rpc.call(JobsRpc.Endpoint, { jobId, port }, ctx);
    if (!endpoint.public) {
      try {
        await this.auth.authenticate(req, reply, NO_RULES);
      } catch (e) {
        // Read access is enough to call a job's port, whatever the method.
        if (!(e instanceof ReadOnlyTokenError)) throw e;
      }
      const caller = req.hubAuth;
      if (!caller) throw new UnauthorizedError('A bearer token is required');
      // 404 when the caller cannot read the job's namespace, as for the job itself.
      await this.namespaces.resolve(endpoint.owner.name, caller, contextOf(req), false);
    }
    if (!endpoint.target)
      throw new ServiceUnavailableError(`Job ${jobId} is ${endpoint.stage}: its ports answer while it runs`);
    const headers = jobRequestHeaders(req.headers);
    headers['x-forwarded-for'] = req.ip;
    headers['x-forwarded-host'] = req.headers.host ?? '';
    reply.hijack();
    const upstream = httpRequest({
      host: endpoint.target.host,
      port: endpoint.target.port,
      method: req.method,
      path: req.url,
      headers,
    });
    upstream.setTimeout(60_000, () => upstream.destroy(new Error('timed out')));
    upstream.on('response', (res) => {
      const out: Record<string, string | string[]> = {};
      for (const [k, v] of Object.entries(res.headers)) if (v !== undefined && !HOP_BY_HOP.has(k)) out[k] = v;
      reply.raw.writeHead(res.statusCode ?? 502, out);
      res.pipe(reply.raw);
    });
    upstream.on('error', () => {
      if (reply.raw.headersSent) {
        reply.raw.destroy();
        return;
      }
      reply.raw.writeHead(502, { 'content-type': 'application/json; charset=utf-8' });
      // The reason (an internal address, a socket error) stays out of the answer.
      reply.raw.end(JSON.stringify({ error: `Job ${jobId} did not answer on port ${port}` }));
    });
    req.raw.pipe(upstream);
  }
}

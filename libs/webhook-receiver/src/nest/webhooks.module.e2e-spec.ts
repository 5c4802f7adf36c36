import 'reflect-metadata';
import { Injectable, type LoggerService, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { WebhookRegistrationError } from '../core/receiver.errors';
import type { WebhookHandlerContext } from '../core/receiver.types';
import { isDiscussionCommentEvent } from '../payload/webhook-payload.guards';
import type { WebhookPayload } from '../payload/webhook-payload.types';
import { hubDelivery, post } from '../testing/delivery.fixtures';
import { discussionCommentPayload, repoPayload } from '../testing/payload.fixtures';
import { WebhookHandler, WebhooksModule } from './index';

const SECRET = 'nest-secret';

/** Captures Nest's log so the handler-failure line can be matched to the errorId. */
class CapturingLogger implements LoggerService {
  readonly lines: string[] = [];
  log = (message: unknown) => void this.lines.push(`log ${String(message)}`);
  warn = (message: unknown) => void this.lines.push(`warn ${String(message)}`);
  error = (message: unknown, trace?: unknown) => void this.lines.push(`error ${String(message)} ${String(trace)}`);
}

@Injectable()
class CommentStore {
  readonly comments: string[] = [];
}

@Injectable()
class DiscussionHooks {
  constructor(private readonly store: CommentStore) {}

  @WebhookHandler('discussion-comments')
  onComment(payload: WebhookPayload, context: WebhookHandlerContext) {
    if (isDiscussionCommentEvent(payload)) this.store.comments.push(payload.comment.content ?? '');
    return { stored: this.store.comments.length, webhookId: context.webhookId ?? null };
  }

  @WebhookHandler()
  explode(): never {
    throw new Error('kaboom: disk full');
  }
}

async function startApp(options: { rawBody: boolean; providers?: (new (...args: never[]) => unknown)[] }) {
  @Module({
    imports: [WebhooksModule.forRoot({ secret: SECRET })],
    providers: options.providers ?? [CommentStore, DiscussionHooks],
  })
  class AppModule {}
  const logger = new CapturingLogger();
  const app = await NestFactory.create<NestFastifyApplication>(AppModule, new FastifyAdapter(), {
    rawBody: options.rawBody,
    abortOnError: false,
    logger,
  });
  await app.listen(0, '127.0.0.1');
  return { app, logger, base: (await app.getUrl()).replace('[::1]', '127.0.0.1') };
}

describe('WebhooksModule on Nest + Fastify, over HTTP', () => {
  let app: NestFastifyApplication;
  let logger: CapturingLogger;
  let base: string;

  beforeAll(async () => ({ app, logger, base } = await startApp({ rawBody: true })));
  afterAll(() => app.close());

  it('routes a signed hub delivery to the decorated provider method, with its dependencies injected', async () => {
    const res = await post(
      `${base}/webhooks/discussion-comments`,
      hubDelivery(discussionCommentPayload(), { secret: SECRET, msgId: 'msg_nest_1' }),
    );
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ stored: 1, webhookId: 'msg_nest_1' });
    expect(app.get(CommentStore).comments).toEqual(['Looks good to me!']);
  });

  it('applies the same secret rules: 401 and 403 with the exact bodies', async () => {
    const missing = await post(`${base}/webhooks/discussion-comments`, hubDelivery(repoPayload()));
    expect(missing.status).toBe(401);
    expect(await missing.text()).toBe('{"error":"x-webhook-secret header not set."}');
    const wrong = await post(
      `${base}/webhooks/discussion-comments`,
      hubDelivery(repoPayload(), { secret: 'nope', sign: false }),
    );
    expect(wrong.status).toBe(403);
    expect(await wrong.text()).toBe('{"error":"Invalid webhook secret."}');
  });

  it('verifies signatures over the raw body (401 when tampered) and answers replays without the handler', async () => {
    const delivery = hubDelivery(discussionCommentPayload(), { secret: SECRET, msgId: 'msg_nest_replay' });
    const tampered = await post(`${base}/webhooks/discussion-comments`, {
      ...delivery,
      body: delivery.body.replace('Looks good', 'Looks bad'),
    });
    expect(tampered.status).toBe(401);
    const before = app.get(CommentStore).comments.length;
    expect((await post(`${base}/webhooks/discussion-comments`, delivery)).status).toBe(200);
    const replay = await post(`${base}/webhooks/discussion-comments`, delivery);
    expect(replay.status).toBe(200);
    expect(await replay.json()).toEqual({ duplicate: true });
    expect(app.get(CommentStore).comments.length).toBe(before + 1);
  });

  it('answers 400 naming the field, 404 for an unknown name and 405 with Allow: POST', async () => {
    const invalid = await post(`${base}/webhooks/discussion-comments`, {
      headers: { 'X-Webhook-Secret': SECRET, 'Content-Type': 'application/json' },
      body: JSON.stringify({ ...repoPayload(), repo: { name: 'a/b' } }),
    });
    expect(invalid.status).toBe(400);
    expect(await invalid.json()).toEqual({ error: 'repo.type must be one of dataset, model, space, bucket, kernel' });
    const unknown = await post(`${base}/webhooks/missing`, hubDelivery(repoPayload(), { secret: SECRET }));
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ error: 'No webhook handler named "missing".' });
    const get = await fetch(`${base}/webhooks/discussion-comments`);
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
  });

  it('answers 500 with an errorId for a throwing handler (route named after the method), logs it, keeps serving', async () => {
    const res = await post(`${base}/webhooks/explode`, hubDelivery(repoPayload(), { secret: SECRET }));
    expect(res.status).toBe(500);
    const { errorId } = (await res.json()) as { errorId: string };
    expect(logger.lines.some((line) => line.includes(`errorId ${errorId}`) && line.includes('kaboom: disk full'))).toBe(
      true,
    );
    expect(
      (await post(`${base}/webhooks/discussion-comments`, hubDelivery(discussionCommentPayload(), { secret: SECRET })))
        .status,
    ).toBe(200);
  });

  it('leaves malformed JSON to the platform, which refuses it with 400 before the module sees it', async () => {
    const res = await post(`${base}/webhooks/discussion-comments`, {
      headers: { 'X-Webhook-Secret': SECRET, 'Content-Type': 'application/json' },
      body: '{"oops',
    });
    expect(res.status).toBe(400);
  });
});

describe('WebhooksModule configuration errors', () => {
  it('without rawBody, refuses to trust a signed delivery (500 + a log line saying what to enable) but accepts the secret header alone', async () => {
    const { app, logger, base } = await startApp({ rawBody: false });
    try {
      const signed = await post(
        `${base}/webhooks/discussion-comments`,
        hubDelivery(discussionCommentPayload(), { secret: SECRET }),
      );
      expect(signed.status).toBe(500);
      const { errorId } = (await signed.json()) as { errorId: string };
      expect(logger.lines.some((line) => line.includes('{rawBody: true}') && line.includes(errorId))).toBe(true);
      const unsigned = await post(
        `${base}/webhooks/discussion-comments`,
        hubDelivery(discussionCommentPayload(), { secret: SECRET, sign: false }),
      );
      expect(unsigned.status).toBe(200);
    } finally {
      await app.close();
    }
  });

  it('fails the application start when two handlers claim the same name', async () => {
    @Injectable()
    class Clash {
      @WebhookHandler('discussion-comments')
      again(): void {
        return undefined;
      }
    }
    await expect(startApp({ rawBody: true, providers: [CommentStore, DiscussionHooks, Clash] })).rejects.toThrow(
      WebhookRegistrationError,
    );
  });
});

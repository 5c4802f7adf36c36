import { Parser } from '@asyncapi/parser';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import * as shared from '@hub/contracts';
import { BUS_PREFIX, declaredEvents } from '@hub/contracts';
import * as credentials from '@hub/credentials-contract';
import * as jobs from '@hub/jobs-contract';
import * as notifications from '@hub/notifications-contract';
import * as organizations from '@hub/organizations-contract';
import * as webhooks from '@hub/webhooks-contract';
import { buildAsyncApiDocument } from './asyncapi-document';
import { renderCatalogue } from './payload-types';

const ROOT = resolve(__dirname, '../../../..');
const doc = buildAsyncApiDocument();
const channels = Object.values(doc.channels);
const bare = (s: string): string => (BUS_PREFIX && s.startsWith(`${BUS_PREFIX}.`) ? s.slice(BUS_PREFIX.length + 1) : s);

/** Every event descriptor or family the contracts export (shared and features'), one level into objects like `Events`. */
function exportedDescriptors(): { where: string; filter: string; payload: unknown }[] {
  const found: { where: string; filter: string; payload: unknown }[] = [];
  const visit = (where: string, value: unknown): void => {
    if (!value || typeof value !== 'object') return;
    const v = value as Record<string, unknown>;
    if (typeof v['pattern'] === 'string' && typeof v['payload'] === 'function')
      found.push({ where, filter: bare(v['pattern']), payload: v['payload'] });
    else if (typeof v['subject'] === 'string' && typeof v['payload'] === 'function')
      found.push({ where, filter: bare(v['subject']), payload: v['payload'] });
  };
  const contracts = [shared, credentials, jobs, notifications, organizations, webhooks];
  for (const [name, value] of contracts.flatMap((c) => Object.entries(c))) {
    visit(name, value);
    if (value && typeof value === 'object')
      for (const [k, inner] of Object.entries(value)) visit(`${name}.${k}`, inner);
  }
  return found.filter((d) => d.filter.startsWith('hub.'));
}

describe('the AsyncAPI document of the bus', () => {
  it('is valid AsyncAPI 3.0 for the official parser', async () => {
    const { document, diagnostics } = await new Parser().parse(JSON.parse(JSON.stringify(doc)));
    const errors = diagnostics.filter((d) => d.severity === 0).map((d) => `${d.path.join('.')}: ${d.message}`);
    expect(errors).toEqual([]);
    expect(
      document
        ?.channels()
        .all()
        .map((c) => c.address())
        .sort(),
    ).toEqual(channels.map((c) => c.address).sort());
  });

  it('has a channel for every event descriptor the contracts export, with each payload class', () => {
    const exported = exportedDescriptors();
    expect(exported.length).toBeGreaterThanOrEqual(10);
    const missing = exported.filter(
      (d) =>
        !channels.some(
          (c) =>
            c['x-hub-filter'] === d.filter && c['x-hub-payload-classes'].includes((d.payload as { name: string }).name),
        ),
    );
    expect(missing.map((d) => `${d.where} (${d.filter})`)).toEqual([]);
    // And nothing declared is left out (descriptors built outside an exported constant too).
    for (const d of declaredEvents().filter((e) => e.name.startsWith('hub.'))) {
      expect(channels.map((c) => c['x-hub-filter'])).toContain(d.family ? `${d.name}.>` : d.name);
    }
  });

  it('documents every channel with an example every consumer class and the schema accept', () => {
    const ajv = addFormats(new Ajv({ allErrors: true, strict: false }));
    const classes = new Map(declaredEvents().map((d) => [d.payload.name, d.payload]));
    for (const [id, channel] of Object.entries(doc.channels)) {
      const message = Object.values(channel.messages)[0];
      const example = (message.examples[0] as { payload: Record<string, unknown> }).payload;
      // An entry in EVENT_DOCS, and a stream in Streams (libs/contracts/src/bus/events.ts) that keeps it.
      expect({
        id,
        summary: channel.summary.includes('no description yet'),
        stream: channel['x-hub-stream'] !== '',
      }).toEqual({ id, summary: false, stream: true });
      expect({ id, schema: ajv.validate(message.payload, example) ? [] : ajv.errors }).toEqual({ id, schema: [] });
      for (const name of channel['x-hub-payload-classes']) {
        const errors = validateSync(plainToInstance(classes.get(name) as new () => object, example), {
          forbidUnknownValues: false,
        });
        expect({ id, name, errors: errors.map((e) => e.toString()) }).toEqual({ id, name, errors: [] });
      }
    }
  });

  it('is what the bus client ships (run `npm run bus:generate` after changing a descriptor)', () => {
    const committed = readFileSync(resolve(ROOT, 'libs/bus-client/src/generated/catalogue.ts'), 'utf8');
    expect(committed).toEqual(renderCatalogue(doc));
  });

  it('does not depend on HUB_BUS_PREFIX', () => {
    expect(BUS_PREFIX).not.toEqual('');
    expect(JSON.stringify(doc)).not.toContain(BUS_PREFIX);
  });
});

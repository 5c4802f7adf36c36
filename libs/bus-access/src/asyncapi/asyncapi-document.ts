import {
  BUS_PREFIX,
  classSchema,
  type DeclaredEvent,
  declaredEvents,
  type JsonSchema,
  mergeSchemas,
  Streams,
  streamName,
} from '@hub/contracts';
import { EVENT_DOCS, type EventDoc } from './event-docs';
// Every descriptor declares itself when its module loads: load the shared ones and every
// feature's (whatever imported this). A new feature's contract is added here.
import './feature-contracts';

/**
 * The version of the bus contract. Additive changes raise the minor, a breaking change (a new
 * subject version beside the old one) the major (decision 0701).
 */
export const BUS_CONTRACT_VERSION = '1.0.0';

export interface AsyncApiDocument {
  asyncapi: '3.0.0';
  info: { title: string; version: string; description: string };
  defaultContentType: string;
  servers: Record<string, unknown>;
  channels: Record<string, AsyncApiChannel>;
  operations: Record<string, unknown>;
}

export interface AsyncApiChannel {
  address: string;
  title: string;
  summary: string;
  description: string;
  parameters?: Record<string, { description: string; examples: string[] }>;
  messages: Record<
    string,
    { name: string; title: string; contentType: string; headers: JsonSchema; payload: JsonSchema; examples: unknown[] }
  >;
  /** The stream that keeps it (without the bus prefix), the NATS filter, the contract status. */
  'x-hub-stream': string;
  'x-hub-filter': string;
  'x-hub-payload-classes': string[];
  'x-hub-published-by': string;
  'x-hub-deprecated'?: { replacedBy: string; until: string };
}

const HEADERS: JsonSchema = {
  type: 'object',
  properties: {
    'Nats-Msg-Id': {
      type: 'string',
      description:
        'The event id (the outbox row id for events of the services): a repeat carries the same id. Key idempotency on it.',
    },
  },
};

const DESCRIPTION = [
  'Events the hub publishes on NATS JetStream, for subscribers in other services.',
  'Every subject and queue group is prefixed with `HUB_BUS_PREFIX` and a dot when it is set (`staging.hub.audit.org.create`);',
  'stream names get the prefix in upper case and an underscore (`STAGING_HUB_AUDIT`).',
  'Payloads are JSON objects; members not listed here may appear and must be ignored.',
  'Delivery is at least once: key idempotency on the `Nats-Msg-Id` header.',
  'Versioning: decision 0701 (additive changes only within a major version; a breaking change is a new subject published beside the old one).',
].join(' ');

const bare = (s: string): string => (BUS_PREFIX && s.startsWith(`${BUS_PREFIX}.`) ? s.slice(BUS_PREFIX.length + 1) : s);
const bareStream = (s: string): string => s.slice(streamName('').length);

/** The stream that keeps a filter's events; '' when none does (the spec fails on it, the gateway still boots). */
function streamOf(filter: string): string {
  for (const stream of Object.values(Streams)) {
    for (const pattern of stream.subjects.map(bare)) {
      if (pattern === filter || (pattern.endsWith('>') && filter.startsWith(pattern.slice(0, -1))))
        return bareStream(stream.name);
    }
  }
  return '';
}

function fallbackName(name: string): string {
  return name
    .replace(/^hub\./, '')
    .split(/[._-]/)
    .map((w, i) => (i === 0 ? w : w.charAt(0).toUpperCase() + w.slice(1)))
    .join('');
}

function docFor(name: string, family: boolean): EventDoc {
  return (
    EVENT_DOCS[name] ?? {
      name: fallbackName(name),
      summary: `\`${name}${family ? '.<…>' : ''}\` (no description yet: add one to EVENT_DOCS in libs/bus-access/src/asyncapi/event-docs.ts).`,
      publishedBy: 'see docs/events.md',
      example: {},
      ...(family ? { suffix: { name: 'event', description: 'The rest of the subject.', example: 'example' } } : {}),
    }
  );
}

function channel(name: string, family: boolean, classes: DeclaredEvent['payload'][]): [string, AsyncApiChannel] {
  const doc = docFor(name, family);
  const sorted = [...classes].sort((a, b) => a.name.localeCompare(b.name));
  const payload = sorted.map((c) => classSchema(c)).reduce((a, b) => mergeSchemas(a, b));
  const filter = family ? `${name}.>` : name;
  const address = family ? `${name}.{${doc.suffix?.name ?? 'event'}}` : name;
  const exampleSubject = family ? `${name}.${doc.suffix?.example ?? 'example'}` : name;
  const messageName = doc.name.charAt(0).toUpperCase() + doc.name.slice(1);
  const out: AsyncApiChannel = {
    address,
    title: doc.name,
    summary: doc.summary,
    description: `Subject filter \`${filter}\` on stream \`${streamOf(filter) || 'none'}\`. Published by ${doc.publishedBy}.`,
    messages: {
      [messageName]: {
        name: messageName,
        title: sorted.map((c) => c.name).join(' & '),
        contentType: 'application/json',
        headers: HEADERS,
        payload,
        examples: [
          {
            name: exampleSubject,
            summary: `on ${exampleSubject}`,
            headers: { 'Nats-Msg-Id': '6b0449ec7cfd14238e9fadcc' },
            payload: doc.example,
          },
        ],
      },
    },
    'x-hub-stream': streamOf(filter),
    'x-hub-filter': filter,
    'x-hub-payload-classes': sorted.map((c) => c.name),
    'x-hub-published-by': doc.publishedBy,
  };
  if (family && doc.suffix)
    out.parameters = { [doc.suffix.name]: { description: doc.suffix.description, examples: [doc.suffix.example] } };
  if (doc.deprecated) out['x-hub-deprecated'] = doc.deprecated;
  return [doc.name, out];
}

/** Every declared event grouped by subject (a family by its prefix), sorted. */
function groupedEvents(): { name: string; family: boolean; classes: DeclaredEvent['payload'][] }[] {
  const groups = new Map<string, { name: string; family: boolean; classes: DeclaredEvent['payload'][] }>();
  for (const e of declaredEvents().filter((d) => d.name.startsWith('hub.'))) {
    const key = `${e.family ? 'family' : 'event'}:${e.name}`;
    const group = groups.get(key) ?? { name: e.name, family: e.family, classes: [] };
    if (!group.classes.includes(e.payload)) group.classes.push(e.payload);
    groups.set(key, group);
  }
  return [...groups.values()].sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * The AsyncAPI 3.0 document of the bus, generated from the event descriptors of libs/contracts and every feature's contract (one
 * channel per subject or family, its payload schema from the class-validator classes every
 * consumer validates with) and EVENT_DOCS (summaries, examples). Independent of HUB_BUS_PREFIX.
 */
export function buildAsyncApiDocument(): AsyncApiDocument {
  const channels: Record<string, AsyncApiChannel> = {};
  const operations: Record<string, unknown> = {};
  for (const g of groupedEvents()) {
    const [id, ch] = channel(g.name, g.family, g.classes);
    if (channels[id]) throw new Error(`two subjects are named ${id} in EVENT_DOCS`);
    channels[id] = ch;
    operations[`publish${id.charAt(0).toUpperCase()}${id.slice(1)}`] = {
      action: 'send',
      title: `publish ${ch.address}`,
      summary: ch.summary,
      channel: { $ref: `#/channels/${id}` },
      messages: Object.keys(ch.messages).map((m) => ({ $ref: `#/channels/${id}/messages/${m}` })),
    };
  }
  return {
    asyncapi: '3.0.0',
    info: { title: 'Hub services event bus', version: BUS_CONTRACT_VERSION, description: DESCRIPTION },
    defaultContentType: 'application/json',
    servers: {
      hub: {
        host: 'localhost:4222',
        protocol: 'nats',
        description: 'The NATS server your hub runs with (its `NATS_URL`), JetStream enabled.',
      },
    },
    channels,
    operations,
  };
}

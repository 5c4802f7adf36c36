import { HubError, TailedReply } from '@hub/contracts';
import { decodeReply, encodeReply } from './rpc-wire';

describe('RPC replies on the wire', () => {
  const bytes = (text: string | Uint8Array): Uint8Array =>
    typeof text === 'string' ? new TextEncoder().encode(text) : text;

  it('carries a plain result as JSON', () => {
    const wire = encodeReply({ name: 'line one\nline two', n: 1 }) as string;
    expect(wire).not.toContain('\n');
    expect(decodeReply(bytes(wire), 's')).toEqual({ name: 'line one\nline two', n: 1 });
    expect(decodeReply(bytes(encodeReply(undefined)), 's')).toBeUndefined();
  });

  it('carries a tailed reply as its JSON head then its tail as it is, left as bytes', () => {
    const tail = '{"message":"a \\"quoted\\" line\\nand more"},{"é":"ü €"}\n\n';
    const wire = encodeReply(new TailedReply({ count: 2, last: { id: 'x' } }, tail)) as string;
    expect(wire).toBe(`{"result":{"count":2,"last":{"id":"x"}}}\n${tail}`);
    const overNats = decodeReply<TailedReply<{ count: number }>>(bytes(wire), 's');
    expect(overNats.head).toEqual({ count: 2, last: { id: 'x' } });
    expect(overNats.tail).toBeInstanceOf(Uint8Array);
    expect(Buffer.from(overNats.tail).toString('utf8')).toBe(tail);
  });

  it('sends a tail of bytes as bytes, copied after the head', () => {
    const tail = Buffer.from('{"a":"€"},{"b":2}');
    const wire = encodeReply(new TailedReply({ count: 2 }, tail));
    expect(wire).toBeInstanceOf(Uint8Array);
    const back = decodeReply<TailedReply<{ count: number }>>(bytes(wire), 's');
    expect(back.head).toEqual({ count: 2 });
    expect(Buffer.from(back.tail).equals(tail)).toBe(true);
  });

  it('turns an error envelope into the HubError it describes', () => {
    const raw = bytes(JSON.stringify({ error: { code: 'NOPE', status: 404, message: 'no such thing' } }));
    expect(() => decodeReply(raw, 's')).toThrow(HubError);
    expect(() => decodeReply(raw, 's')).toThrow('no such thing');
  });
});

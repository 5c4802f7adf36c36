import { HubError, TailedReply } from '@hub/contracts';
import { decodeReply, encodeReply } from './rpc-wire';

describe('RPC replies on the wire', () => {
  const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);

  it('carries a plain result as JSON, whether it arrives as text or as bytes', () => {
    const wire = encodeReply({ name: 'line one\nline two', n: 1 }) as string;
    expect(wire).not.toContain('\n');
    expect(decodeReply(wire, 's')).toEqual({ name: 'line one\nline two', n: 1 });
    expect(decodeReply(bytes(wire), 's')).toEqual({ name: 'line one\nline two', n: 1 });
    expect(decodeReply(encodeReply(undefined), 's')).toBeUndefined();
  });

  it('carries a tailed reply as its JSON head then its tail as it is: text in-process, bytes over NATS', () => {
    const tail = '{"message":"a \\"quoted\\" line\\nand more"},{"é":"ü €"}\n\n';
    const wire = encodeReply(new TailedReply({ count: 2, last: { id: 'x' } }, tail)) as string;
    expect(wire).toBe(`{"result":{"count":2,"last":{"id":"x"}}}\n${tail}`);
    const inProcess = decodeReply<TailedReply<{ count: number }>>(wire, 's');
    expect(inProcess).toBeInstanceOf(TailedReply);
    expect(inProcess.head).toEqual({ count: 2, last: { id: 'x' } });
    expect(inProcess.tail).toBe(tail);
    const overNats = decodeReply<TailedReply<{ count: number }>>(bytes(wire), 's');
    expect(overNats.head).toEqual({ count: 2, last: { id: 'x' } });
    expect(overNats.tail).toBeInstanceOf(Uint8Array);
    expect(Buffer.from(overNats.tail).toString('utf8')).toBe(tail);
  });

  it('sends a tail of bytes as bytes, copied after the head', () => {
    const tail = Buffer.from('{"a":"€"},{"b":2}');
    const wire = encodeReply(new TailedReply({ count: 2 }, tail));
    expect(wire).toBeInstanceOf(Uint8Array);
    const back = decodeReply<TailedReply<{ count: number }>>(wire, 's');
    expect(back.head).toEqual({ count: 2 });
    expect(Buffer.from(back.tail).equals(tail)).toBe(true);
  });

  it('turns an error envelope into the HubError it describes, as text or bytes', () => {
    const wire = JSON.stringify({ error: { code: 'NOPE', status: 404, message: 'no such thing' } });
    for (const raw of [wire, bytes(wire)]) {
      expect(() => decodeReply(raw, 's')).toThrow(HubError);
      expect(() => decodeReply(raw, 's')).toThrow('no such thing');
    }
  });
});

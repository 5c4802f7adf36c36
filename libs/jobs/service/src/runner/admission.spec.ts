import { Admission } from './admission';

describe('Admission', () => {
  it('admits up to the caps, in order, without a namespace at its cap holding back the others; tells why once per reason', async () => {
    const a = new Admission(3, 2);
    const told: [string, string][] = [];
    const admitted: string[] = [];
    const ask = (id: string, ns: string) =>
      void a.acquire(id, ns, (m) => told.push([id, m])).then((ok) => ok && admitted.push(id));
    ask('a1', 'A');
    ask('a2', 'A');
    ask('a3', 'A');
    ask('b1', 'B');
    ask('b2', 'B');
    await Promise.resolve();
    expect(admitted).toEqual(['a1', 'a2', 'b1']);
    expect(told.map(([id, m]) => [id, /PER_NAMESPACE/.test(m) ? 'namespace' : 'runner'])).toEqual([
      ['a3', 'namespace'],
      ['a3', 'runner'],
      ['b2', 'runner'],
    ]);
    a.release('a');
    await Promise.resolve();
    expect(admitted).toEqual(['a1', 'a2', 'b1', 'a3']);
    a.withdraw('b2');
    a.release('B');
    await Promise.resolve();
    expect(admitted).toEqual(['a1', 'a2', 'b1', 'a3']);
    expect(a.waiting).toBe(0);
  });
});

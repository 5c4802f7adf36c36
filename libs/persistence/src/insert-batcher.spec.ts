import { InsertBatcher } from './insert-batcher';

const settle = (p: Promise<void>): Promise<string> =>
  p.then(
    () => 'ok',
    (err: Error) => err.message,
  );

describe('InsertBatcher (items handed in together written as one batch)', () => {
  it('writes what arrives in one turn of the event loop as one batch, and a full batch at once', async () => {
    const batches: number[][] = [];
    const b = new InsertBatcher<number>(async (items) => void batches.push(items), 3);
    const all = [1, 2, 3, 4, 5].map((i) => b.add(i));
    expect(batches).toEqual([[1, 2, 3]]);
    await Promise.all(all);
    expect(batches).toEqual([
      [1, 2, 3],
      [4, 5],
    ]);
  });

  it('with a gather time, items added within it join the first one', async () => {
    const batches: number[][] = [];
    const b = new InsertBatcher<number>(async (items) => void batches.push(items), 100, 40);
    const first = b.add(1);
    await new Promise((r) => setTimeout(r, 10));
    const second = b.add(2);
    await Promise.all([first, second]);
    expect(batches).toEqual([[1, 2]]);
  });

  it('an error answered for one item fails that item alone; a write that throws fails the batch', async () => {
    const one = new InsertBatcher<string>(async (items) => items.map((i) => (i === 'bad' ? new Error(i) : undefined)));
    expect(await Promise.all(['a', 'bad', 'c'].map((i) => settle(one.add(i))))).toEqual(['ok', 'bad', 'ok']);
    const all = new InsertBatcher<string>(async () => {
      throw new Error('down');
    });
    expect(await Promise.all(['a', 'b'].map((i) => settle(all.add(i))))).toEqual(['down', 'down']);
  });
});

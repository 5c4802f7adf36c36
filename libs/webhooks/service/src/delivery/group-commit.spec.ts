import { GroupCommit } from './group-commit';

describe('GroupCommit', () => {
  const timing = { gatherMs: 20, soonMs: 1, maxBatch: 3 };

  it('writes the items added within the wait in one call, answering each in order', async () => {
    const calls: number[][] = [];
    const g = new GroupCommit<number, number>(async (items) => (calls.push(items), items.map((i) => i * 10)), timing);
    expect(await Promise.all([g.add(1), g.add(2)])).toEqual([10, 20]);
    expect(calls).toEqual([[1, 2]]);
  });

  it('writes at once when a group is full, and the rest in a next call', async () => {
    const calls: number[][] = [];
    const g = new GroupCommit<number, number>(async (items) => (calls.push(items), items), timing);
    await Promise.all([1, 2, 3, 4].map((i) => g.add(i)));
    expect(calls).toEqual([[1, 2, 3], [4]]);
  });

  it('fails every item of a group whose write failed, and writes the next group', async () => {
    let n = 0;
    const g = new GroupCommit<number, number>(async (items) => {
      if (n++ === 0) throw new Error('down');
      return items;
    }, timing);
    const first = [g.add(1), g.add(2)];
    await expect(Promise.all(first)).rejects.toThrow('down');
    await expect(first[1]).rejects.toThrow('down');
    expect(await g.add(3)).toBe(3);
  });

  it('writes sooner for an item added with soon', async () => {
    const g = new GroupCommit<number, number>(async (items) => items, { ...timing, gatherMs: 60_000 });
    expect(await g.add(7, true)).toBe(7);
  });

  it('drain writes what is waiting', async () => {
    const written: number[] = [];
    const g = new GroupCommit<number, void>(async (items) => items.map((i) => void written.push(i)), {
      ...timing,
      gatherMs: 60_000,
    });
    void g.add(5);
    await g.drain();
    expect(written).toEqual([5]);
  });
});

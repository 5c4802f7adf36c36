import { LineSplitter } from './line-splitter';

const split = (chunks: string[], max = 8): string[] => {
  const out: string[] = [];
  const s = new LineSplitter(max, (l) => out.push(l));
  for (const c of chunks) s.write(Buffer.from(c));
  s.end();
  return out;
};

describe('LineSplitter', () => {
  it('joins lines across chunks, keeps empty lines, drops a trailing CR, ends with the unterminated rest', () => {
    expect(split(['a', 'b\n\nc\r\n', 'd'])).toEqual(['ab', '', 'c', 'd']);
  });

  it('cuts a long line at the bound and drops the rest until its newline', () => {
    expect(split(['0123456789abc', 'def\nnext\n'])).toEqual(['01234567', 'next']);
  });

  it('holds at most the bound of a flood without newlines', () => {
    const out: string[] = [];
    const s = new LineSplitter(4, (l) => out.push(l));
    for (let i = 0; i < 1000; i++) s.write(Buffer.alloc(1000, 120));
    s.end();
    expect(out).toEqual(['xxxx']);
  });

  it('keeps multi-byte characters split across chunks', () => {
    const euro = Buffer.from('€\n');
    const out: string[] = [];
    const s = new LineSplitter(100, (l) => out.push(l));
    s.write(euro.subarray(0, 1));
    s.write(euro.subarray(1));
    expect(out).toEqual(['€']);
  });
});

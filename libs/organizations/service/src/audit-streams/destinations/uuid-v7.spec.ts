import { uuidV7 } from './uuid-v7';

describe('uuidV7', () => {
  it('is a version 7 UUID whose text sorts in the order the ids were made, within one millisecond too', () => {
    const ids = [
      uuidV7(1_800_000_000_000),
      uuidV7(1_800_000_000_000),
      uuidV7(1_800_000_000_001),
      uuidV7(1_800_000_000_000),
    ];
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect([...ids].sort()).toEqual(ids);
  });
});

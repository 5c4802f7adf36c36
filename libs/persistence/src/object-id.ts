import { randomBytes } from 'node:crypto';

let counter = randomBytes(3).readUIntBE(0, 3);
const processPart = randomBytes(5);

/**
 * A 24-character lowercase hexadecimal id laid out like a MongoDB ObjectId (4-byte seconds,
 * 5 random bytes per process, 3-byte counter): sortable by creation time, unique without a
 * round trip to the database.
 */
export function newObjectId(now: Date = new Date()): string {
  const buf = Buffer.alloc(12);
  buf.writeUInt32BE(Math.floor(now.getTime() / 1000) >>> 0, 0);
  processPart.copy(buf, 4);
  counter = (counter + 1) % 0xffffff;
  buf.writeUIntBE(counter, 9, 3);
  return buf.toString('hex');
}

/**
 * A 24-character lowercase hexadecimal id of 12 random bytes: same shape as newObjectId, but
 * nothing to learn from it and no neighbour to guess (token ids are shown to org admins).
 */
export function newRandomId(): string {
  return randomBytes(12).toString('hex');
}

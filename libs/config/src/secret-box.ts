import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

const PREFIX = 'v1.';

/**
 * AES-256-GCM with a key derived from HUB_SECRET_KEY and a purpose label (so webhook secrets and
 * job secrets use different keys): secrets never rest in clear. Sealed values read `v1.<base64>`.
 */
export class SecretBox {
  private readonly key: Buffer;

  /** `purpose` separates the keys of different uses of one HUB_SECRET_KEY (e.g. `hub-webhook-secrets`). */
  constructor(secretKey: string, purpose: string) {
    this.key = createHash('sha256').update(`${purpose}:${secretKey}`).digest();
  }

  seal(plain: string): string {
    const iv = randomBytes(12);
    const c = createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([c.update(plain, 'utf8'), c.final()]);
    return `${PREFIX}${Buffer.concat([iv, c.getAuthTag(), body]).toString('base64')}`;
  }

  open(sealed: string): string {
    const raw = Buffer.from(sealed.slice(PREFIX.length), 'base64');
    const d = createDecipheriv('aes-256-gcm', this.key, raw.subarray(0, 12));
    d.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([d.update(raw.subarray(28)), d.final()]).toString('utf8');
  }

  /** Every value of a name → value map sealed (names stay readable). */
  sealMap(plain: Record<string, string>): Record<string, string> {
    return Object.fromEntries(Object.entries(plain).map(([k, v]) => [k, this.seal(v)]));
  }

  openMap(sealed: Record<string, string>): Record<string, string> {
    return Object.fromEntries(Object.entries(sealed).map(([k, v]) => [k, this.open(v)]));
  }
}

import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/** AES-256-GCM with a key derived from HUB_SECRET_KEY: webhook secrets never rest in clear. */
export class SecretBox {
  private readonly key: Buffer;

  constructor(secretKey: string) {
    this.key = createHash('sha256').update(`hub-webhook-secrets:${secretKey}`).digest();
  }

  seal(plain: string): string {
    const iv = randomBytes(12);
    const c = createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([c.update(plain, 'utf8'), c.final()]);
    return `v1.${Buffer.concat([iv, c.getAuthTag(), body]).toString('base64')}`;
  }

  open(sealed: string): string {
    const raw = Buffer.from(sealed.slice(3), 'base64');
    const d = createDecipheriv('aes-256-gcm', this.key, raw.subarray(0, 12));
    d.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([d.update(raw.subarray(28)), d.final()]).toString('utf8');
  }
}

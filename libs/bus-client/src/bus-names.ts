/**
 * The hub prefixes every subject with `HUB_BUS_PREFIX` and a dot, and every stream and durable
 * name with the prefix in upper case and an underscore (several hubs share one NATS).
 */
export class BusNames {
  constructor(readonly prefix: string) {
    if (!/^[a-zA-Z0-9_-]*$/.test(prefix)) throw new Error('HUB_BUS_PREFIX may hold letters, digits, _ and - only');
  }

  subject(name: string): string {
    return this.prefix ? `${this.prefix}.${name}` : name;
  }

  /** The subject as the contract names it (without the prefix). */
  bare(subject: string): string {
    return this.prefix && subject.startsWith(`${this.prefix}.`) ? subject.slice(this.prefix.length + 1) : subject;
  }

  stream(name: string): string {
    return this.prefix ? `${this.prefix.toUpperCase().replace(/-/g, '_')}_${name}` : name;
  }
}

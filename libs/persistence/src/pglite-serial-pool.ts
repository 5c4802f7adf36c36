import { type PGliteDriver } from 'typeorm-pglite';

// typeorm-pglite exports its pool class only through the driver (`driver.Pool`): its public API.
type PoolClass = PGliteDriver['driver']['Pool'];
type PGlitePool = InstanceType<PoolClass>;
type Release = () => void;
type ConnectCallback = (err: unknown, client: PGlitePool | null, release: Release) => void;

/** One holder at a time, first come first served. */
class Mutex {
  private tail: Promise<void> = Promise.resolve();

  acquire(): Promise<Release> {
    let release!: Release;
    const held = new Promise<void>((r) => (release = r));
    const ready = this.tail.then(() => release);
    this.tail = this.tail.then(() => held);
    return ready;
  }
}

const session = new Mutex();
let openPools = 0;
const serialPools = new WeakMap<PGliteDriver, PoolClass>();

/**
 * PGlite is one Postgres session shared by every DataSource of the process (typeorm-pglite hands
 * the same client to every query runner). Without this, two transactions interleave in that
 * session: one's COMMIT commits the other's half, and an outbox relay sees rows not yet
 * committed. So a query runner holds the session from connect to release, as a pooled
 * connection would on Postgres. Code must not wait for a second query runner while holding one
 * (it would wait forever): use the transaction's manager inside a transaction.
 * Built on the pool class of the given driver (one driver per process, so one class).
 */
export function serialPGlitePool(driver: PGliteDriver): PoolClass {
  const known = serialPools.get(driver);
  if (known) return known;
  const Base = driver.driver.Pool;
  class SerialPGlitePool extends Base {
    constructor() {
      super();
      openPools++;
    }

    override connect(callback: ConnectCallback): Promise<void> {
      return session.acquire().then((release) => {
        let released = false;
        const once: Release = () => {
          if (released) return;
          released = true;
          release();
        };
        return super.connect((err, client) => {
          if (err) once();
          callback(err, client, once);
        });
      });
    }

    /** The shared instance closes when the last DataSource on it is destroyed, not the first. */
    override end(callback: (err: Error | null) => void): void {
      openPools = Math.max(0, openPools - 1);
      if (openPools > 0) return callback(null);
      super.end(callback as (err: unknown) => void);
    }
  }
  serialPools.set(driver, SerialPGlitePool);
  return SerialPGlitePool;
}

import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource } from 'typeorm';
import { HubError, type RequestContext } from '@hub/contracts';
import { CredentialsRpc } from '@hub/credentials-contract';
import { RpcClient } from '@hub/messaging';
import { OrganizationsStore } from './organizations.store';
import { ORGANIZATIONS_DS } from '../organizations.di';

const ctx: RequestContext = { requestId: 'organization-names-reconciler', admin: true };
const BATCH = 200;

/**
 * Registers in credentials' shared name registry (decision 0009) the organizations created before
 * it existed, so no user can later take their names. Runs in the background at start and retries
 * while credentials is not reachable yet; reserving is idempotent per organization id, so two
 * replicas doing it at once is harmless. A name a user already holds (any case) is left
 * unregistered and logged for the operator to rename one of them.
 */
@Injectable()
export class OrganizationNamesReconciler implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('OrganizationNamesReconciler');
  private stopped = false;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    @InjectDataSource(ORGANIZATIONS_DS) private readonly ds: DataSource,
    private readonly rpc: RpcClient,
  ) {}

  onApplicationBootstrap(): void {
    this.schedule(0, 1000);
  }

  onApplicationShutdown(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
  }

  private schedule(delayMs: number, nextBackoffMs: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.runOnce().then(
        () => undefined,
        (e: unknown) => {
          this.logger.warn({ err: e }, `registering organization names failed; retrying in ${nextBackoffMs} ms`);
          this.schedule(nextBackoffMs, Math.min(nextBackoffMs * 2, 60_000));
        },
      );
    }, delayMs);
    this.timer.unref();
  }

  /** Registers every unregistered organization name; returns how many it registered. */
  async runOnce(): Promise<number> {
    let registered = 0;
    let after = '';
    for (;;) {
      const rows = await OrganizationsStore.unregistered(this.ds.manager, after, BATCH);
      for (const org of rows) {
        if (this.stopped) return registered;
        try {
          await this.rpc.call(
            CredentialsRpc.ReserveName,
            { name: org.name, kind: 'organization', ownerId: org.id },
            ctx,
          );
        } catch (e) {
          if (!(e instanceof HubError) || e.status !== 409) throw e;
          this.logger.warn(
            `organization ${org.name} shares its name with a user (names are case-insensitive): rename one of them`,
          );
          continue;
        }
        await OrganizationsStore.markRegistered(this.ds.manager, org.id);
        registered++;
      }
      if (rows.length < BATCH) return registered;
      after = rows[rows.length - 1]?.id ?? after;
    }
  }
}

export * from './organizations.module';
export * from './organizations-core.module';
export * from './organizations.config';
export * from './organizations.di';
export { OrganizationNamesReconciler } from './organizations/organization-names.reconciler';
export { RepoEventsConsumer } from './repositories/repo-events.consumer';
export { RepoEventIdsPruner } from './repositories/repo-event-ids.pruner';

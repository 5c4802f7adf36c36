import { GetRecoveryUseCase } from './get-recovery.use-case';
import { RecoveryStore } from './recovery.store';
import { StartRecoveryUseCase } from './start-recovery.use-case';

export { RecoveryHandler } from './recovery.handler';

export const RECOVERY_PROVIDERS = [RecoveryStore, StartRecoveryUseCase, GetRecoveryUseCase];

import { GetRecoveryUseCase } from './get-recovery.use-case';
import { StartRecoveryUseCase } from './start-recovery.use-case';

export { RecoveryHandler } from './recovery.handler';

export const RECOVERY_PROVIDERS = [StartRecoveryUseCase, GetRecoveryUseCase];

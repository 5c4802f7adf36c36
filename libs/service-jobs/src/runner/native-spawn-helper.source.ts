import { NATIVE_BASE } from './native/helper-base';
import { NATIVE_DIRS } from './native/helper-dirs';
import { NATIVE_RUNS } from './native/helper-runs';
import { NATIVE_MAIN } from './native/helper-main';

/**
 * The native spawn helper's program in C (decision 0614), compiled when the service starts with
 * the machine's `cc` (native-spawn-helper.ts). A string for the same reason as the Node helper's
 * program: it ships inside every bundle and runs the same from Jest's sources.
 */
export const NATIVE_SPAWN_HELPER_SOURCE = [NATIVE_BASE, NATIVE_DIRS, NATIVE_RUNS, NATIVE_MAIN].join('\n');

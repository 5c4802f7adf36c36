import { LogGate } from '../logs/log-gate';
import { spawnHelperProgram } from './spawn-helper.program';

/**
 * The spawn helper's program as the text `node -e` runs (see SpawnHelper): spawnHelperProgram
 * (spawn-helper.program.ts, a checked file of ours) called with LogGate, both as their compiled
 * source, so it runs the same from the webpack bundle, from Jest's transpiled sources and from any
 * dist layout, and loads nothing but Node's own modules (a heap of a few MB: its forks are cheap).
 *
 * Protocol over the IPC channel, JSON messages:
 *   service → helper  { op: 'spawn', id, file, args, dir, env, owner?: { uid, gid }, cgroup?: { procs, home }, log?, readBytes? }
 *   helper → service  { op: 'spawned', id, pid, startTicks }   (pid null when it could not start)
 *                     { op: 'lines', id, lines, dropped? }     (stdout and stderr, batched per loop turn)
 *                     { op: 'exit', id, code, signal, error? } (last for an id, after its lines)
 * It creates the scratch directory (owned by `owner` when set), spawns the command detached in its
 * own process group (with `cgroup`: forked while the helper itself is in the run's cgroups, which it
 * enters just before and leaves right after), and removes the directory when the command ends. When the service goes away
 * (the channel closes: exit, crash, kill -9) it kills every process group it started and exits,
 * so no run outlives its service untracked, whatever the database holds.
 * With `log` (LogGate's options), a run's lines go through the same LogGate as in the service,
 * without markers: a flood is cut here, and `dropped` ({ lines, bytes }) counts what was cut before
 * the lines of its message (decision 0631). With `readBytes`, each output stream is read at most that
 * many bytes a second (in 100 ms windows): past it the command's writes wait.
 */
export const SPAWN_HELPER_SOURCE = `'use strict';\n(${spawnHelperProgram.toString()})(${LogGate.toString()});\n`;

// A webhook job script as a user would write it, run in a child process by
// run-job-handler.e2e-spec.ts (through ts-node, transpile only).
import { runJobHandler } from '../job/run-job-handler';

void runJobHandler(async (payload, context) => {
  if (process.env['FIXTURE_THROW']) throw new Error('the job could not finish');
  console.log(`handling ${payload.event.scope}.${payload.event.action} on ${context.repoType} ${context.repoId}`);
  // A leftover timer must not keep the job alive: runJobHandler exits explicitly.
  setInterval(() => undefined, 60_000);
  return { handled: payload.repo.name, hasSecret: context.secret !== undefined };
});

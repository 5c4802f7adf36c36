import { dockerClientEnv, dockerRunArgs } from './docker-args';

const req = {
  jobId: '6b0000000000000000000abc',
  attempt: 2,
  flavor: 'cpu-upgrade' as const,
  dockerImage: 'python:3.12',
  command: ['python', '-c', 'print(1)'],
  arguments: ['--x'],
  env: { MODE: 'fast', PATH: '/opt/bin' },
  secrets: { HF_TOKEN: 'hf_secret' },
  onLine: () => undefined,
};

describe('docker run for dockerImage jobs (local runner)', () => {
  it('runs the image with the flavor limits, no new privileges, --rm, the command as entrypoint + args', () => {
    const argv = dockerRunArgs(req);
    expect(argv.slice(0, 3)).toEqual(['run', '--rm', '--init']);
    const opt = (name: string): string | undefined => argv[argv.indexOf(name) + 1];
    expect(opt('--name')).toBe('hub-job-6b0000000000000000000abc-2');
    expect(opt('--label')).toBe('hub.job=6b0000000000000000000abc');
    expect(opt('--cpus')).toBe('8');
    expect(opt('--memory')).toBe('32g');
    expect(opt('--memory-swap')).toBe('32g');
    expect(opt('--pids-limit')).toBe('512');
    expect(opt('--security-opt')).toBe('no-new-privileges');
    expect(opt('--cap-drop')).toBe('ALL');
    expect(opt('--entrypoint')).toBe('python');
    expect(argv.slice(argv.indexOf('python:3.12'))).toEqual(['python:3.12', '-c', 'print(1)', '--x']);
  });

  it("passes only the job's own variables, and secret values never on the command line", () => {
    const argv = dockerRunArgs(req);
    const envArgs = argv.flatMap((a, i) => (argv[i - 1] === '-e' ? [a] : []));
    expect(envArgs).toEqual(['HF_TOKEN', 'JOB_ID', 'MODE', 'PATH=/opt/bin']);
    expect(argv.join(' ')).not.toContain('hf_secret');
  });

  it("the docker client gets the job's values (read by -e NAME) and what it needs to reach the engine, nothing else of the hub", () => {
    const env = dockerClientEnv(req, {
      PATH: '/usr/bin',
      DOCKER_HOST: 'unix:///run/docker.sock',
      DATABASE_URL: 'postgres://x',
      HUB_ADMIN_TOKEN: 't',
    });
    expect(env).toEqual({
      HF_TOKEN: 'hf_secret',
      MODE: 'fast',
      JOB_ID: '6b0000000000000000000abc',
      PATH: '/usr/bin',
      DOCKER_HOST: 'unix:///run/docker.sock',
    });
  });
});

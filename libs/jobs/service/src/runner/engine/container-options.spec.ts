import { containerOptions, memoryBytesOf } from './container-options';

const req = {
  jobId: '6b0000000000000000000001',
  attempt: 2,
  dockerImage: 'python:3.12',
  command: ['python', '-c'],
  arguments: ['print(1)'],
  flavor: 'cpu-basic' as const,
  env: { A: '1', PATH: '/mine' },
  secrets: { TOKEN: 's3cr3t' },
  expose: { ports: [8080] },
  onLine: () => undefined,
};
const settings = { network: 'hub-jobs', user: '65534:65534', tmpSizeMb: 64 };

describe('containerOptions', () => {
  it('isolates the container: non-root, no capabilities, read-only root with bounded tmpfs, flavor limits, jobs network', () => {
    const o = containerOptions(req, settings);
    expect(o).toMatchObject({
      name: 'hub-job-6b0000000000000000000001-2',
      Image: 'python:3.12',
      Entrypoint: ['python'],
      Cmd: ['-c', 'print(1)'],
      User: '65534:65534',
      WorkingDir: '/work',
      ExposedPorts: { '8080/tcp': {} },
      HostConfig: {
        Init: true,
        ReadonlyRootfs: true,
        CapDrop: ['ALL'],
        SecurityOpt: ['no-new-privileges'],
        Memory: 16 * 1024 ** 3,
        MemorySwap: 16 * 1024 ** 3,
        NanoCpus: 2e9,
        PidsLimit: 512,
        NetworkMode: 'hub-jobs',
        LogConfig: { Type: 'json-file', Config: { 'max-size': '1m', 'max-file': '1' } },
      },
    });
    expect(o.HostConfig?.Tmpfs).toEqual({
      '/tmp': 'rw,exec,nosuid,nodev,size=64m,mode=1777',
      '/work': 'rw,exec,nosuid,nodev,size=64m,mode=0700,uid=65534,gid=65534',
    });
    expect(o.HostConfig?.Privileged).toBeUndefined();
  });

  it('puts the environment and secrets in the create body (the job may override PATH), JOB_ID last', () => {
    const env = containerOptions(req, settings).Env ?? [];
    expect(env).toEqual(expect.arrayContaining(['A=1', 'PATH=/mine', 'TOKEN=s3cr3t', 'HOME=/work']));
    expect(env[env.length - 1]).toBe('JOB_ID=6b0000000000000000000001');
  });

  it('caps memory with HUB_JOBS_MEMORY_LIMIT_MB, never above the flavor', () => {
    expect(memoryBytesOf(req, { memoryLimitMb: 64 })).toBe(64 * 1024 ** 2);
    expect(memoryBytesOf(req, { memoryLimitMb: 1_000_000 })).toBe(16 * 1024 ** 3);
  });
});

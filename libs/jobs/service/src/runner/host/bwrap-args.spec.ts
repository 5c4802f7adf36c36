import { bwrapArgs, JOB_HOME } from './bwrap-args';

const merged = (path: string): { link: string } | 'dir' | 'absent' =>
  path === '/usr' ? 'dir' : ['/bin', '/sbin', '/lib', '/lib64'].includes(path) ? { link: `usr${path}` } : 'absent';

describe('bwrapArgs (the sandbox of a host-mode job)', () => {
  const MB = 1024 * 1024;
  const args = bwrapArgs({ diskBytes: 100 * MB, argv: ['/bin/sh', '-c', 'echo hi'], systemDir: merged });
  const pairs = (flag: string): string[][] =>
    args.flatMap((a, i) => (a === flag ? [[args[i + 1] as string, args[i + 2] as string]] : []));

  it('unshares user, pid, ipc, uts and network namespaces, drops every capability, and dies with its parent', () => {
    for (const flag of ['--unshare-user', '--unshare-pid', '--unshare-ipc', '--unshare-uts', '--unshare-net']) {
      expect(args).toContain(flag);
    }
    expect(args).toEqual(expect.arrayContaining(['--die-with-parent', '--new-session', '--disable-userns']));
    expect(args[args.indexOf('--cap-drop') + 1]).toBe('ALL');
  });

  it('binds only the system directories, read-only (links stay links), and nothing of the machine writable', () => {
    expect(pairs('--ro-bind')).toEqual([['/usr', '/usr']]);
    expect(pairs('--symlink')).toEqual([
      ['usr/bin', '/bin'],
      ['usr/sbin', '/sbin'],
      ['usr/lib', '/lib'],
      ['usr/lib64', '/lib64'],
    ]);
    expect(args).not.toContain('--bind');
    const mounted = [...pairs('--ro-bind'), ...pairs('--ro-bind-try'), ...pairs('--bind')].map(([from]) => from);
    for (const hidden of ['/', '/home', '/root', '/var', '/run', '/srv', '/tmp', '/etc', '/etc/shadow']) {
      expect(mounted).not.toContain(hidden);
    }
    expect(mounted.every((m) => m === '/usr' || m.startsWith('/etc/'))).toBe(true);
  });

  it('makes every writable place a sized tmpfs (/tmp and the home at the disk size, /dev/shm 64 MB) and the rest read-only', () => {
    const tmpfs = args.flatMap((a, i) => (a === '--tmpfs' ? [[args[i - 1], args[i + 1]]] : []));
    expect(tmpfs).toEqual([
      [String(64 * MB), '/dev/shm'],
      [String(100 * MB), '/tmp'],
      [String(100 * MB), JOB_HOME],
    ]);
    expect(args.every((a, i) => a !== '--tmpfs' || args[i - 2] === '--size')).toBe(true);
    expect(args[args.indexOf('/tmp') - 4]).toBe('1777');
    expect(args.slice(args.indexOf('--chdir'), args.indexOf('--chdir') + 2)).toEqual(['--chdir', JOB_HOME]);
    // bwrap's own root and /dev are unsized tmpfs: read-only, once everything is mounted on them.
    const remounts = args.flatMap((a, i) => (a === '--remount-ro' ? [args[i + 1]] : []));
    expect(remounts).toEqual(['/dev', '/']);
    expect(args.lastIndexOf('--tmpfs')).toBeLessThan(args.indexOf('--remount-ro'));
    const small = bwrapArgs({ diskBytes: 8 * MB, argv: ['true'], systemDir: merged });
    expect(small[small.indexOf('/dev/shm') - 2]).toBe(String(8 * MB));
  });

  it('gives a fresh /proc and /dev, and ends with the command after --', () => {
    expect(args[args.indexOf('--proc') + 1]).toBe('/proc');
    expect(args[args.indexOf('--dev') + 1]).toBe('/dev');
    expect(args.slice(args.indexOf('--'))).toEqual(['--', '/bin/sh', '-c', 'echo hi']);
  });
});

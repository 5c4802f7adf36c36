import { bwrapArgs, JOB_HOME } from './bwrap-args';

const merged = (path: string): { link: string } | 'dir' | 'absent' =>
  path === '/usr' ? 'dir' : ['/bin', '/sbin', '/lib', '/lib64'].includes(path) ? { link: `usr${path}` } : 'absent';

describe('bwrapArgs (the sandbox of a host-mode job)', () => {
  const args = bwrapArgs({ scratchDir: '/srv/hub-jobs/j1-1', argv: ['/bin/sh', '-c', 'echo hi'], systemDir: merged });
  const pairs = (flag: string): string[][] =>
    args.flatMap((a, i) => (a === flag ? [[args[i + 1] as string, args[i + 2] as string]] : []));

  it('unshares user, pid, ipc, uts and network namespaces, drops every capability, and dies with its parent', () => {
    for (const flag of ['--unshare-user', '--unshare-pid', '--unshare-ipc', '--unshare-uts', '--unshare-net']) {
      expect(args).toContain(flag);
    }
    expect(args).toEqual(expect.arrayContaining(['--die-with-parent', '--new-session', '--disable-userns']));
    expect(args[args.indexOf('--cap-drop') + 1]).toBe('ALL');
  });

  it('binds only the system directories, read-only (links stay links), and the scratch directory as the home', () => {
    expect(pairs('--ro-bind')).toEqual([['/usr', '/usr']]);
    expect(pairs('--symlink')).toEqual([
      ['usr/bin', '/bin'],
      ['usr/sbin', '/sbin'],
      ['usr/lib', '/lib'],
      ['usr/lib64', '/lib64'],
    ]);
    expect(pairs('--bind')).toEqual([['/srv/hub-jobs/j1-1', JOB_HOME]]);
    const mounted = [...pairs('--ro-bind'), ...pairs('--ro-bind-try'), ...pairs('--bind')].map(([from]) => from);
    for (const hidden of ['/', '/home', '/root', '/var', '/run', '/srv', '/tmp', '/etc', '/etc/shadow']) {
      expect(mounted).not.toContain(hidden);
    }
    expect(mounted.every((m) => m === '/usr' || m.startsWith('/etc/') || m === '/srv/hub-jobs/j1-1')).toBe(true);
  });

  it('gives a private, bounded /tmp, a fresh /proc and /dev, and ends with the command after --', () => {
    expect(args.slice(args.indexOf('--tmpfs') - 4, args.indexOf('--tmpfs') + 2)).toEqual([
      '--perms',
      '1777',
      '--size',
      String(512 * 1024 * 1024),
      '--tmpfs',
      '/tmp',
    ]);
    expect(args[args.indexOf('--proc') + 1]).toBe('/proc');
    expect(args[args.indexOf('--dev') + 1]).toBe('/dev');
    expect(args.slice(args.indexOf('--'))).toEqual(['--', '/bin/sh', '-c', 'echo hi']);
  });
});

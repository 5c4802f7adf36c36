import { execFileSync } from 'node:child_process';
import { readFileSync, readlinkSync } from 'node:fs';
import { bootId, identityOf, stillRunning } from './process-identity';

describe('process identity (where a pid means this process)', () => {
  const inode = (link: string): string => /\[(\d+)\]/.exec(link)?.[1] ?? '';

  it('is the boot id and the pid namespace: a container beside ours on the same machine is another place', () => {
    const boot = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
    const ours = inode(readlinkSync('/proc/self/ns/pid'));
    expect(bootId()).toBe(`${boot}/${ours}`);
    // A process in a pid namespace of its own (as a second pod on the node) sees another namespace,
    // and its pid 1 is not ours: its bootId() differs, so neither settles the other's jobs at once.
    const theirs = execFileSync('unshare', ['--pid', '--fork', 'sh', '-c', 'readlink /proc/self/ns/pid; echo $$'], {
      encoding: 'utf8',
    }).split('\n');
    expect(inode(theirs[0] ?? '')).not.toBe(ours);
    expect(theirs[1]).toBe('1');
  });

  it('tells this very process from another with the same pid in another place', () => {
    const self = identityOf(process.pid);
    expect(self && stillRunning(self)).toBe(true);
    expect(self && stillRunning({ ...self, bootId: `${self.bootId.split('/')[0]}/1` })).toBe(false);
  });
});

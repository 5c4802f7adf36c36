import { RegistryPolicy } from './registry-policy';

const DNS: Record<string, string[]> = {
  'registry.example.com': ['93.184.216.34'],
  'rebind.example.com': ['93.184.216.34', '127.0.0.1'],
  'mapped.example.com': ['::ffff:10.0.0.5'],
};
const policy = (allowed: string[] = []): RegistryPolicy =>
  new RegistryPolicy({
    allowed,
    ownNames: ['hub.example.org', 'jobs.example.org'],
    resolve: async (host) => {
      const found = DNS[host];
      if (!found) throw new Error(`getaddrinfo ENOTFOUND ${host}`);
      return found;
    },
  });

describe('RegistryPolicy', () => {
  it.each([
    'alpine:3',
    'team/app:1',
    'registry.example.com/team/app:1',
    'registry.example.com:5000/team/app',
    // Unresolvable here: not refused (the pull fails with the runner's own message).
    'nowhere.invalid/app',
    '93.184.216.34:5000/app',
  ])('allows %s', async (image) => {
    expect(await policy().refusal(image)).toBeNull();
  });

  it.each([
    ['127.0.0.1:4222/nats/probe:x', 'registry 127.0.0.1:4222 is an internal address'],
    ['localhost:5432/pg/probe:x', "registry localhost:5432 is one of this hub's own names"],
    ['localhost/app', "registry localhost is one of this hub's own names"],
    ['10.1.2.3/app', 'internal address'],
    ['172.20.0.1:5000/app', 'internal address'],
    ['192.168.1.1/app', 'internal address'],
    ['169.254.169.254/latest/meta-data:x', 'internal address'],
    ['100.64.0.1/app', 'internal address'],
    ['0.0.0.0:5000/app', 'internal address'],
    ['[::1]:5000/app', 'internal address'],
    ['[fe80::1]:5000/app', 'internal address'],
    ['[fd00::1]/app', 'internal address'],
    ['[::ffff:127.0.0.1]/app', 'internal address'],
    ['hub.example.org/app', "this hub's own names"],
    ['x.jobs.example.org:443/app', "this hub's own names"],
    ['rebind.example.com/app', 'resolves to an internal address'],
    ['mapped.example.com/app', 'resolves to an internal address'],
    ['../../etc/passwd', 'registry host ".."'],
  ])('refuses %s (%s)', async (image, reason) => {
    expect(await policy().refusal(image)).toContain(reason);
  });

  it('allows a listed registry: a host entry on every port, a host:port entry on that port only', async () => {
    expect(await policy(['127.0.0.1:5000']).refusal('127.0.0.1:5000/app')).toBeNull();
    expect(await policy(['127.0.0.1:5000']).refusal('127.0.0.1:4222/app')).toContain('internal address');
    expect(await policy(['localhost']).refusal('localhost:5000/app')).toBeNull();
    expect(await policy(['LocalHost']).refusal('localhost/app')).toBeNull();
  });
});

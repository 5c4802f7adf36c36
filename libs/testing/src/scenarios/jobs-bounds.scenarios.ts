import { http } from '../http-client';
import { makeUser } from '../hub-factory';
import { type JobTarget } from './jobs-helpers';

const OK = { dockerImage: 'alpine:3', flavor: 'cpu-basic', command: ['true'] };

/** Each bad job object and the field its 400 must name (spec 4.6 and our own bounds). */
const BAD: [string, Record<string, unknown>, RegExp][] = [
  ['no flavor', { ...OK, flavor: undefined }, /flavor/],
  ['unknown flavor', { ...OK, flavor: 'gpu-huge' }, /flavor/],
  ['neither image nor space', { ...OK, dockerImage: undefined }, /dockerImage and spaceId/],
  ['both image and space', { ...OK, spaceId: 'a/b' }, /dockerImage and spaceId/],
  ['no command', { ...OK, command: undefined }, /command/],
  ['empty command', { ...OK, command: [] }, /command/],
  ['empty command item', { ...OK, command: [''] }, /command/],
  ['command not strings', { ...OK, command: [1] }, /command/],
  ['arguments not strings', { ...OK, arguments: [true] }, /arguments/],
  ['environment key', { ...OK, environment: { '1BAD': 'x' } }, /environment/],
  ['environment value', { ...OK, environment: { GOOD: 1 } }, /environment/],
  ['secrets key', { ...OK, secrets: { 'bad-key': 'x' } }, /secrets/],
  ['arch', { ...OK, arch: 'x86' }, /arch/],
  ['timeout zero', { ...OK, timeoutSeconds: 0 }, /timeoutSeconds/],
  ['timeout fraction', { ...OK, timeoutSeconds: 1.5 }, /timeoutSeconds/],
  ['attempts zero', { ...OK, attempts: 0 }, /attempts/],
  ['attempts too many', { ...OK, attempts: 11 }, /attempts/],
  ['label key', { ...OK, labels: { 'a b': 'x' } }, /labels/],
  ['label value', { ...OK, labels: { a: 'x y' } }, /labels/],
  ['label value too long', { ...OK, labels: { a: 'x'.repeat(101) } }, /labels/],
  ['volume type', { ...OK, volumes: [{ type: 'disk', source: 'a/b', mountPath: '/d' }] }, /type/],
  ['volume mount path', { ...OK, volumes: [{ type: 'model', source: 'a/b', mountPath: 'd' }] }, /mountPath/],
  ['no volumes', { ...OK, volumes: [] }, /volumes/],
  ['expose port', { ...OK, expose: { ports: [70000] } }, /ports/],
  ['expose too many', { ...OK, expose: { ports: Array.from({ length: 21 }, (_, i) => i + 1) } }, /ports/],
  ['portsPublic not a subset', { ...OK, expose: { ports: [80], portsPublic: [81] } }, /portsPublic/],
  ['ssh enabled', { ...OK, ssh: { enabled: 'yes' } }, /enabled/],
  ['resource group', { ...OK, resourceGroupId: 'xyz' }, /resourceGroupId/],
];

export function jobsBoundsScenarios(target: () => JobTarget): void {
  it('answers every out-of-bounds job object with a 400 naming the field', async () => {
    const t = target();
    const user = await makeUser(t);
    const got: [string, number, string][] = [];
    for (const [name, body, field] of BAD) {
      const res = await http<{ error: string }>(t.baseUrl, 'POST', `/api/jobs/${user.name}`, {
        token: user.token,
        body,
      });
      got.push([name, res.status, field.test(res.body.error) ? 'named' : res.body.error]);
    }
    expect(got).toEqual(BAD.map(([name]) => [name, 400, 'named']));
    const badQuery = await http<{ error: string }>(t.baseUrl, 'GET', `/api/jobs/${user.name}?stage=DONE`, {
      token: user.token,
    });
    expect(badQuery.status).toBe(400);
    const badCursor = await http<{ error: string }>(t.baseUrl, 'GET', `/api/jobs/${user.name}?cursor=nope`, {
      token: user.token,
    });
    expect(badCursor.status).toBe(400);
    const badId = await http<{ error: string }>(t.baseUrl, 'GET', `/api/jobs/${user.name}/not-an-id`, {
      token: user.token,
    });
    expect(badId.status).toBe(400);
    const badLabels = await http<{ error: string }>(
      t.baseUrl,
      'PUT',
      `/api/jobs/${user.name}/${'0'.repeat(24)}/labels`,
      { token: user.token, body: { labels: { 'a b': '1' } } },
    );
    expect(badLabels.status).toBe(400);
  });

  it('a read token cannot run jobs (403)', async () => {
    const t = target();
    const reader = await makeUser(t, 'read');
    const res = await http<{ error: string }>(t.baseUrl, 'POST', `/api/jobs/${reader.name}`, {
      token: reader.token,
      body: OK,
    });
    expect(res.status).toBe(403);
    expect(res.body.error).toMatch(/read/);
  });
}

import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import fc from 'fast-check';
import { CreateJobDto } from './create-job.dto';
import { engineImageRef, parseImageReference } from './image-reference';

const HEX64 = 'a'.repeat(64);
const DIGEST = `sha256:${'0123456789abcdef'.repeat(4)}`;

describe('parseImageReference', () => {
  it.each([
    ['alpine', { path: 'alpine' }, 'alpine:latest'],
    ['alpine:3', { path: 'alpine', tag: '3' }, 'alpine:3'],
    ['library/python:3.12-slim', { path: 'library/python', tag: '3.12-slim' }, 'library/python:3.12-slim'],
    ['team/my_app__x.y-z--w:v1_A', { path: 'team/my_app__x.y-z--w', tag: 'v1_A' }, 'team/my_app__x.y-z--w:v1_A'],
    ['ghcr.io/org/app', { registry: 'ghcr.io', host: 'ghcr.io', path: 'org/app' }, 'ghcr.io/org/app:latest'],
    [
      'Registry.Example.com:5000/a/b:1',
      { registry: 'registry.example.com:5000', host: 'registry.example.com', path: 'a/b', tag: '1' },
      'registry.example.com:5000/a/b:1',
    ],
    ['localhost/app', { registry: 'localhost', host: 'localhost', path: 'app' }, 'localhost/app:latest'],
    [
      '127.0.0.1:4222/nats/probe:x',
      { registry: '127.0.0.1:4222', host: '127.0.0.1', path: 'nats/probe', tag: 'x' },
      null,
    ],
    ['[::1]:5000/app', { registry: '[::1]:5000', host: '::1', path: 'app' }, null],
    [`app@${DIGEST}`, { path: 'app', digest: DIGEST }, `app@${DIGEST}`],
    [`app:1@${DIGEST}`, { path: 'app', tag: '1', digest: DIGEST }, `app:1@${DIGEST}`],
    [`x:${'t'.repeat(128)}`, { path: 'x', tag: 't'.repeat(128) }, null],
    // A short hexadecimal name is a repository name (the engine is asked for `<name>:latest`, never an id).
    ['5bf66c631b5c', { path: '5bf66c631b5c' }, '5bf66c631b5c:latest'],
  ])('%s is a reference', (text, parsed, engineRef) => {
    const ref = parseImageReference(text);
    expect(ref).toEqual(parsed);
    if (engineRef && !('error' in ref)) expect(engineImageRef(ref)).toBe(engineRef);
  });

  it.each([
    ['../../etc/passwd', 'registry host ".."'],
    ['../../127.0.0.1:19401/q?x=1&y=', 'registry host ".."'],
    ['a/../b', 'path component ".."'],
    ['Alpine:3', 'path component "Alpine"'],
    ['docker.io/Library/alpine', 'path component "Library"'],
    ['a//b', 'empty path component'],
    ['a/', 'empty path component'],
    ['/a', 'empty path component'],
    ['', 'must name an image'],
    [':3', 'must name an image'],
    ['a:', 'tag ""'],
    [`a:${'t'.repeat(129)}`, 'tag "'],
    ['a:.x', 'tag ".x"'],
    ['a:-x', 'tag "-x"'],
    ['a:x/y', 'registry port "x"'],
    ['a b', 'path component "a b"'],
    ['a?x=1', 'path component "a?x=1"'],
    ['a%2f..', 'path component'],
    ['a#b', 'path component'],
    ['a-', 'path component "a-"'],
    ['a..b', 'path component "a..b"'],
    ['a___b', 'path component "a___b"'],
    ['host:99999/a', 'registry port "99999"'],
    ['host:x1/a', 'registry port "x1"'],
    ['-bad.com/a', 'registry host "-bad.com"'],
    ['a@sha256:abc', 'digest "sha256:abc"'],
    [`a@md5:${'0'.repeat(32)}`, 'digest'],
    [`a@sha256:${'A'.repeat(64)}`, 'digest'],
    [HEX64, 'not an image id'],
    [`sha256:${HEX64}`, 'not an image id'],
    [`${'a'.repeat(256)}:1`, 'at most 255 characters'],
  ])('%s is refused (%s)', (text, reason) => {
    const ref = parseImageReference(text);
    expect('error' in ref && ref.error).toContain(reason);
  });

  it('never yields a reference whose engine form carries a path separator sequence, a query or a fragment', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...'aZ0./:@?#%&=_- '.split('')), maxLength: 40 }), (text) => {
        const ref = parseImageReference(text);
        if ('error' in ref) return;
        expect(engineImageRef(ref)).not.toMatch(/\.\.|\/\/|^\/|[?#%&= ]/);
      }),
    );
  });
});

describe('CreateJobDto.dockerImage', () => {
  const errorsOf = (dockerImage: unknown): string[] =>
    validateSync(plainToInstance(CreateJobDto, { flavor: 'cpu-basic', dockerImage, command: ['id'] })).flatMap((e) =>
      Object.values(e.constraints ?? {}),
    );

  it('names the field and the reason', () => {
    expect(errorsOf('alpine:3')).toEqual([]);
    expect(errorsOf('../../etc/passwd')).toEqual([
      'dockerImage must be an image reference such as python:3.12 or registry.example.com/team/app:1 (registry host ".." must be a host name or an IP address)',
    ]);
  });
});

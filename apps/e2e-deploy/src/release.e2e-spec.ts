import { execFileSync } from 'node:child_process';
import { WORKSPACE_ROOT } from '@hub/testing';
import { renderKustomization } from './support/kustomize';
import { repoFile } from './support/repo-files';

/** Decision 0203: one version, in package.json, the changelog, the images and the manifests. */
describe('the release', () => {
  const version = (JSON.parse(repoFile('package.json')) as { version: string }).version;

  it('is a semantic version, with its section in CHANGELOG.md', () => {
    expect(version).toMatch(/^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/);
    expect(repoFile('CHANGELOG.md')).toContain(`\n## [${version}] - `);
    expect((JSON.parse(repoFile('package-lock.json')) as { version: string }).version).toBe(version);
  });

  it('is the image tag the base and prod kustomizations deploy', () => {
    for (const dir of ['k8s/base', 'k8s/overlays/prod']) {
      const images = renderKustomization(dir)
        .flatMap((o) => {
          const spec = (o as { spec?: { template?: { spec?: { containers?: { image?: string }[] } } } }).spec;
          return spec?.template?.spec?.containers ?? [];
        })
        .map((c) => c.image ?? '')
        .filter((image) => /hub[-/]/.test(image));
      expect(images.length).toBeGreaterThan(5);
      expect({ dir, tags: [...new Set(images.map((i) => i.split(':').pop()))] }).toEqual({ dir, tags: [version] });
    }
  });

  it('docker/build-images.sh tags each image with the version and the commit, and labels both', () => {
    const commit = execFileSync('git', ['rev-parse', '--short=12', 'HEAD'], {
      cwd: WORKSPACE_ROOT,
      encoding: 'utf8',
    }).trim();
    // DOCKER=echo prints the build command instead of running it.
    const out = execFileSync('bash', ['docker/build-images.sh', 'webhooks'], {
      cwd: WORKSPACE_ROOT,
      encoding: 'utf8',
      env: { ...process.env, DOCKER: 'echo', HUB_IMAGE_TAG: 'extra' },
    });
    const build = out.split('\n')[0];
    const sha = new RegExp(`:${commit}(-dirty)?(\\s|$)`);
    expect(build).toContain(`--build-arg APP=webhooks`);
    expect(build).toContain(`--build-arg HUB_VERSION=${version}`);
    expect(build).toMatch(new RegExp(`--build-arg HUB_COMMIT=${commit}(-dirty)? `));
    expect(build).toContain(`-t hub-services/webhooks:${version} `);
    expect(build).toMatch(new RegExp(`-t hub-services/webhooks${sha.source}`));
    expect(build).toContain('-t hub-services/webhooks:extra');
    const dockerfile = repoFile('docker/Dockerfile');
    expect(dockerfile).toContain('org.opencontainers.image.version="${HUB_VERSION}"');
    expect(dockerfile).toContain('org.opencontainers.image.revision="${HUB_COMMIT}"');
  });

  it('test:deploy builds its images through docker/build-images.sh', () => {
    expect(repoFile('docker/local/test-deploy.sh')).toMatch(/bash docker\/build-images\.sh "\$app"/);
  });
});

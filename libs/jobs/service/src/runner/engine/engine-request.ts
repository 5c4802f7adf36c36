import { request as httpRequest, type RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { type Engine } from './engine-connect';

/** Connection options for the engine's address (a socket path, or a unix:// / tcp:// / http(s):// URL). */
function connection(address: string): { options: RequestOptions; secure: boolean } {
  if (address.startsWith('/')) return { options: { socketPath: address }, secure: false };
  const url = new URL(address);
  if (url.protocol === 'unix:') return { options: { socketPath: url.pathname }, secure: false };
  return { options: { host: url.hostname, port: Number(url.port || 2375) }, secure: url.protocol === 'https:' };
}

/**
 * Whether the engine has the image `ref`. Asked here, not through dockerode: its modem follows
 * redirects (with no option to stop it) to a host taken from the Location header, outside the
 * engine's socket, and an engine answers 301 to a path it cleans (issue 35). This request puts the
 * name in the path encoded, follows nothing, and rejects on any answer but 200 and 404.
 */
export function imageExists(engine: Engine, ref: string): Promise<boolean> {
  const { options, secure } = connection(engine.socket);
  return new Promise((resolve, reject) => {
    const req = (secure ? httpsRequest : httpRequest)(
      { ...options, method: 'GET', path: `/images/${encodeURIComponent(ref)}/json`, timeout: 30_000 },
      (res) => {
        res.resume();
        res.on('error', reject);
        if (res.statusCode === 200) resolve(true);
        else if (res.statusCode === 404) resolve(false);
        else reject(new Error(`the engine answered ${res.statusCode} to an image lookup`));
      },
    );
    req.on('timeout', () => req.destroy(new Error('the engine did not answer an image lookup')));
    req.on('error', reject);
    req.end();
  });
}

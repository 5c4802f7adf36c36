import { registerDecorator, type ValidationArguments } from 'class-validator';

/**
 * A container image reference, as distribution's reference grammar reads it
 * (github.com/distribution/reference, regexp.go):
 *
 *   reference  := name [ ":" tag ] [ "@" digest ]
 *   name       := [ domain "/" ] path-component ( "/" path-component )*
 *   domain     := host [ ":" port ]     host: DNS labels, an IPv4 address, or "[" IPv6 "]"
 *   path-component := [a-z0-9]+ ( ( "." | "_" | "__" | "-"+ ) [a-z0-9]+ )*
 *   tag        := [\w][\w.-]{0,127}
 *   digest     := algorithm ":" hex      (sha256: 64, sha384: 96, sha512: 128 lowercase hex digits)
 *
 * The first component is the registry when it has a "." or ":", is "localhost", or has an
 * uppercase letter (distribution's splitDockerDomain); otherwise the name is Docker Hub's or an
 * image the engine already has. The name is at most 255 characters. Image ids (64 hex digits,
 * alone or as `sha256:<hex>`) are refused: they name no repository (decision 0623).
 */
export interface ImageReference {
  /** `host[:port]` as written, lowercased; absent for a name without a registry. */
  registry?: string;
  /** The registry's host without its port (an IPv6 literal without brackets). */
  host?: string;
  /** The repository path (without the registry). */
  path: string;
  tag?: string;
  digest?: string;
}

const COMPONENT = /^[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*$/;
const DNS_LABEL = /^(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])$/;
const IPV6 = /^\[([0-9a-fA-F:.]+)\]$/;
const PORT = /^[0-9]{1,5}$/;
const TAG = /^[\w][\w.-]{0,127}$/;
const DIGEST_HEX: Record<string, number> = { sha256: 64, sha384: 96, sha512: 128 };
const IMAGE_ID = /^(?:sha256:)?[a-f0-9]{64}$/;
const MAX_NAME = 255;

/** `host[:port]` of a registry, or the reason it is not one. */
export function parseRegistry(domain: string): { host: string } | { error: string } {
  const ipv6 = /^(\[[^\]]*\])(?::(.*))?$/.exec(domain);
  const [host, port] = ipv6 ? [ipv6[1], ipv6[2]] : domain.split(/:(.*)/s, 2);
  if (port !== undefined && (!PORT.test(port) || Number(port) > 65535))
    return { error: `registry port "${port}" must be a number up to 65535` };
  const v6 = IPV6.exec(host);
  if (v6) return { host: v6[1].toLowerCase() };
  if (!host || !host.split('.').every((l) => DNS_LABEL.test(l)))
    return { error: `registry host "${host}" must be a host name or an IP address` };
  return { host: host.toLowerCase() };
}

/** The reference, or the reason it is not one (a phrase that follows "dockerImage "). */
export function parseImageReference(text: string): ImageReference | { error: string } {
  if (IMAGE_ID.test(text))
    return { error: 'must name a repository, not an image id (such as sha256:… or 64 hexadecimal digits)' };
  let rest = text;
  let digest: string | undefined;
  const at = rest.indexOf('@');
  if (at >= 0) {
    digest = rest.slice(at + 1);
    rest = rest.slice(0, at);
    const [algorithm, hex, extra] = digest.split(':');
    const length = DIGEST_HEX[algorithm];
    if (extra !== undefined || !length || !hex || hex.length !== length || !/^[a-f0-9]+$/.test(hex))
      return { error: `digest "${digest}" must be sha256, sha384 or sha512 followed by ":" and its lowercase hex` };
  }
  let tag: string | undefined;
  const lastSlash = rest.lastIndexOf('/');
  const colon = rest.indexOf(':', lastSlash + 1);
  if (colon >= 0) {
    tag = rest.slice(colon + 1);
    rest = rest.slice(0, colon);
    if (!TAG.test(tag))
      return { error: `tag "${tag}" must be 1..128 letters, digits, "_", "." or "-", not starting with "." or "-"` };
  }
  if (!rest) return { error: 'must name an image' };
  if (rest.length > MAX_NAME) return { error: `name must be at most ${MAX_NAME} characters` };
  const parts = rest.split('/');
  const first = parts[0];
  const hasRegistry =
    parts.length > 1 &&
    (first.includes('.') || first.includes(':') || first === 'localhost' || first !== first.toLowerCase());
  let registry: string | undefined;
  let host: string | undefined;
  if (hasRegistry) {
    const parsed = parseRegistry(first);
    if ('error' in parsed) return parsed;
    registry = first.toLowerCase();
    host = parsed.host;
    parts.shift();
  }
  for (const part of parts)
    if (!COMPONENT.test(part))
      return {
        error: part
          ? `path component "${part}" must be lowercase letters and digits, separated by ".", "_", "__" or "-"`
          : 'must not have an empty path component',
      };
  const path = parts.join('/');
  if (!registry && /^[a-f0-9]{64}$/.test(path))
    return { error: 'must name a repository, not an image id (such as sha256:… or 64 hexadecimal digits)' };
  return { ...(registry ? { registry, host } : {}), path, ...(tag ? { tag } : {}), ...(digest ? { digest } : {}) };
}

/**
 * The reference as the engine is asked for it: as written, with `:latest` when it names neither a
 * tag nor a digest (the engine would otherwise pull every tag).
 */
export function engineImageRef(ref: ImageReference): string {
  const name = ref.registry ? `${ref.registry}/${ref.path}` : ref.path;
  if (ref.digest) return `${name}${ref.tag ? `:${ref.tag}` : ''}@${ref.digest}`;
  return `${name}:${ref.tag ?? 'latest'}`;
}

/** `dockerImage` (or `job.dockerImage`…): an image reference by distribution's grammar; the message names the property. */
export function IsImageReference(): PropertyDecorator {
  return (target: object, property: string | symbol) => {
    registerDecorator({
      name: 'isImageReference',
      target: target.constructor,
      propertyName: String(property),
      validator: {
        validate: (v: unknown) => typeof v === 'string' && !('error' in parseImageReference(v)),
        defaultMessage: (a?: ValidationArguments) => {
          const parsed = typeof a?.value === 'string' ? parseImageReference(a.value) : { error: 'must be a string' };
          const reason = 'error' in parsed ? parsed.error : '';
          return `${a?.property ?? String(property)} must be an image reference such as python:3.12 or registry.example.com/team/app:1 (${reason})`;
        },
      },
    });
  };
}

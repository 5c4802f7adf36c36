import { WebhookRegistrationError } from './receiver.errors';
import type { WebhookHandlerFn } from './receiver.types';

export interface RegisteredHandler {
  name: string;
  handle: WebhookHandlerFn;
}

/** Names become one URL path segment, so they are kept to characters that need no encoding. */
const NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._~-]*$/;

/**
 * The routes of one receiver. Every naming mistake fails here, at registration, so a server
 * never starts with a route nobody can reach or two handlers fighting for one.
 */
export class WebhookHandlerRegistry {
  private readonly handlers = new Map<string, RegisteredHandler>();

  add(handle: WebhookHandlerFn, explicitName?: string): RegisteredHandler {
    if (typeof handle !== 'function') throw new WebhookRegistrationError('A webhook handler must be a function.');
    const name = explicitName ?? inferName(handle);
    if (!name) {
      throw new WebhookRegistrationError(
        'Anonymous webhook handler: give it a name, e.g. add(handler, {name: "my-hook"}), or use a named function.',
      );
    }
    if (!NAME_PATTERN.test(name)) {
      throw new WebhookRegistrationError(
        `Invalid webhook handler name "${name}": use letters, digits, ".", "_", "~" or "-" (it becomes /webhooks/<name>).`,
      );
    }
    if (this.handlers.has(name)) {
      throw new WebhookRegistrationError(`A webhook handler named "${name}" is already registered.`);
    }
    const registered = { name, handle };
    this.handlers.set(name, registered);
    return registered;
  }

  get(name: string): RegisteredHandler | undefined {
    return this.handlers.get(name);
  }

  names(): string[] {
    return [...this.handlers.keys()];
  }
}

/** `fn.bind(x)` is named "bound fn": the user meant `fn`. */
function inferName(handle: WebhookHandlerFn): string {
  return handle.name.replace(/^bound /, '');
}

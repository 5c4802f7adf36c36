import { WebhookRegistrationError } from './receiver.errors';
import { WebhookHandlerRegistry } from './webhook-handler.registry';

describe('WebhookHandlerRegistry', () => {
  it('names a route after the function, or after the explicit name', () => {
    const registry = new WebhookHandlerRegistry();
    registry.add(function onModelUpdate() {
      return undefined;
    });
    const trigger = () => undefined;
    registry.add(trigger, 'retrain-model');
    registry.add(
      function named() {
        return undefined;
      }.bind(null),
    );
    expect(registry.names()).toEqual(['onModelUpdate', 'retrain-model', 'named']);
  });

  it('refuses an anonymous function without a name', () => {
    const registry = new WebhookHandlerRegistry();
    expect(() => registry.add(() => undefined)).toThrow(WebhookRegistrationError);
    expect(() => registry.add(() => undefined)).toThrow(/Anonymous webhook handler/);
  });

  it('refuses a second handler with the same name', () => {
    const registry = new WebhookHandlerRegistry();
    registry.add(() => 1, 'hook');
    expect(() => registry.add(() => 2, 'hook')).toThrow('A webhook handler named "hook" is already registered.');
  });

  it.each(['with space', 'a/b', '', '-leading', 'ünï'])('refuses %p, which is not one plain path segment', (name) => {
    expect(() => new WebhookHandlerRegistry().add(() => 1, name)).toThrow(WebhookRegistrationError);
  });
});

describe('bus prefix', () => {
  afterEach(() => jest.resetModules());

  it('prefixes subjects, queue groups and stream names from HUB_BUS_PREFIX', () => {
    process.env['HUB_BUS_PREFIX'] = 'staging-1';
    const p = require('./prefix') as typeof import('./prefix');
    expect(p.subject('hub.audit.org.create')).toBe('staging-1.hub.audit.org.create');
    expect(p.queueGroup('credentials')).toBe('staging-1-credentials');
    expect(p.streamName('HUB_EVENTS')).toBe('STAGING_1_HUB_EVENTS');
  });

  it('leaves names alone without a prefix', () => {
    process.env['HUB_BUS_PREFIX'] = '';
    const p = require('./prefix') as typeof import('./prefix');
    expect(p.subject('hub.events.repo.update')).toBe('hub.events.repo.update');
    expect(p.streamName('HUB_EVENTS')).toBe('HUB_EVENTS');
  });
});

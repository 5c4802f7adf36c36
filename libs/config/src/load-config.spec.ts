import { HubConfig } from './hub-config';
import { ConfigError, loadConfig } from './load-config';

describe('loadConfig', () => {
  it('applies defaults and converts numbers', () => {
    const c = loadConfig(HubConfig, { PORT: '9090' });
    expect(c.PORT).toBe(9090);
    expect(c.HUB_DATA_DIR).toBe('./data');
    expect(c.migrateOnStart).toBe(true);
  });

  it('turns migrations off by default with a real database', () => {
    const c = loadConfig(HubConfig, { DATABASE_URL: 'postgres://x@h/db' });
    expect(c.migrateOnStart).toBe(false);
    expect(
      loadConfig(HubConfig, { DATABASE_URL: 'postgres://x@h/db', HUB_MIGRATE_ON_START: 'true' }).migrateOnStart,
    ).toBe(true);
  });

  it('lists every bad variable by name', () => {
    expect(() => loadConfig(HubConfig, { PORT: 'abc', DATABASE_URL: 'mysql://x' })).toThrow(ConfigError);
    try {
      loadConfig(HubConfig, { PORT: 'abc', DATABASE_URL: 'mysql://x' });
    } catch (e) {
      expect(String(e)).toContain('PORT');
      expect(String(e)).toContain('DATABASE_URL must start with postgres://');
    }
  });

  it('reads an empty variable as unset, unless the class keeps it empty', () => {
    class Kept extends HubConfig {
      static readonly keepEmpty = ['HUB_PUBLIC_URL'];
    }
    expect(loadConfig(HubConfig, { HUB_PUBLIC_URL: '' }).HUB_PUBLIC_URL).toBeUndefined();
    expect(() => loadConfig(Kept, { HUB_PUBLIC_URL: '' })).toThrow(/HUB_PUBLIC_URL must be an http\(s\) URL/);
  });
});

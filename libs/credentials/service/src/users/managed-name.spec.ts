import { managedName, managedNameBase } from './managed-name';

describe('managed account names (decision 0421)', () => {
  it('takes the part before the last "@" of e-mail and UPN forms, in lower case', () => {
    expect(managedNameBase('Ada.Lovelace@Contoso.com')).toBe('ada.lovelace');
    expect(managedNameBase('guest_outlook.com#EXT#@contoso.onmicrosoft.com')).toBe('guest_outlook.com-ext');
    expect(managedName('Ada.Lovelace@contoso.com', 'acme')).toBe('ada.lovelace_acme');
  });

  it('turns what a hub name cannot hold into "-", drops accents, trims the ends', () => {
    expect(managedNameBase('José Müller')).toBe('jose-muller');
    expect(managedNameBase('..--a  b--..')).toBe('a-b');
    expect(managedNameBase('日本')).toBe('user');
    expect(managedNameBase('@example.com')).toBe('example.com');
  });

  it('adds a counter when the name is taken and stays within 96 characters', () => {
    expect(managedName('ada@x.io', 'acme', 2)).toBe('ada-2_acme');
    const long = managedName(`${'a'.repeat(300)}@x.io`, 'o'.repeat(96), 17);
    expect(long.length).toBeLessThanOrEqual(96);
    expect(long).toMatch(/^a+-17_o{40}$/);
  });
});

/** DI tokens of the credentials service. */
export const CREDENTIALS_DS = 'credentials';
export const CREDENTIALS_CONFIG = Symbol('CREDENTIALS_CONFIG');

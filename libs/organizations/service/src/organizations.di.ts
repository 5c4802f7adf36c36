/** DI tokens of the organizations service. */
export const ORGANIZATIONS_DS = 'organizations';
export const ORGANIZATIONS_CONFIG = Symbol('ORGANIZATIONS_CONFIG');

/** DI tokens of the notifications service, and the schema its DataSource owns. */
export const NOTIFICATIONS_DS = 'notifications';
export const NOTIFICATIONS_CONFIG = Symbol('NOTIFICATIONS_CONFIG');
export const NOTIFICATIONS_SCHEMA = 'notifications';

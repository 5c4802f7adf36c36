export const NOTIFICATIONS_DS = 'notifications';
export const NOTIFICATIONS_CONFIG = Symbol('NOTIFICATIONS_CONFIG');
export const NOTIFICATIONS_SCHEMA = 'notifications';
/** Items per page of GET /api/notifications (decision 0400). */
export const NOTIFICATIONS_PAGE_SIZE = 20;

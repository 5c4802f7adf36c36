import { HubConfig } from '@hub/config';

export class NotificationsConfig extends HubConfig {}

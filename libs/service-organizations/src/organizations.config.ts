import { HubConfig } from '@hub/config';

export class OrganizationsConfig extends HubConfig {}

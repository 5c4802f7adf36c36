import { type Browser } from 'playwright-core';
import { browserAvailable, launchBrowser } from '../browser';
import { consoleAuditStreamsScenarios } from './console-audit-streams.scenarios';
import { consoleDeliveriesScenarios } from './console-deliveries.scenarios';
import { consoleFixesScenarios } from './console-fixes.scenarios';
import { type ConsoleTarget } from './console-helpers';
import { consoleJobsLiveScenarios } from './console-jobs-live.scenarios';
import { consoleLinksScenarios } from './console-links.scenarios';
import { consoleInboxScenarios } from './console-inbox.scenarios';
import { consoleNotificationsScenarios } from './console-notifications.scenarios';
import { consoleOperatorScenarios } from './console-operator.scenarios';
import { consoleWebhookKindsScenarios } from './console-webhook-kinds.scenarios';
import { consoleWorkScenarios } from './console-work.scenarios';

/** The console in a real browser (Debian's chromium), through the main flow of each screen, axe-core on each. */
export function consoleScenarios(t: () => ConsoleTarget): void {
  (browserAvailable() ? describe : describe.skip)('web console in a browser', () => {
    let browser: Browser;
    beforeAll(async () => {
      browser = await launchBrowser();
    });
    afterAll(async () => {
      await browser?.close();
    });
    const c = { t, browser: () => browser };
    consoleInboxScenarios(c);
    consoleWorkScenarios(c);
    consoleWebhookKindsScenarios(c);
    consoleOperatorScenarios(c);
    consoleFixesScenarios(c);
    consoleAuditStreamsScenarios(c);
    consoleDeliveriesScenarios(c);
    consoleJobsLiveScenarios(c);
    consoleNotificationsScenarios(c);
    consoleLinksScenarios(c);
  });
}

import { test as base, type BrowserContext } from '@playwright/test';
import { type ServerName, startServers } from './servers.ts';

export { expect } from '@playwright/test';

/**
 * Playwright's `test`, with one automatic fixture: any uncaught error in a page of the test (in its own
 * context or in one it opens with `browser.newContext`) fails the test, with the errors' messages.
 */
export const test = base.extend<{ pageErrors: string[] }>({
  pageErrors: [
    async ({ context, browser }, use) => {
      const errors: string[] = [];
      const watch = (watched: BrowserContext) => watched.on('weberror', (error) => errors.push(error.error().message));
      watch(context);
      const newContext = browser.newContext;
      browser.newContext = async (...args) => {
        const opened = await newContext.apply(browser, args);
        watch(opened);
        return opened;
      };
      try {
        await use(errors);
      } finally {
        browser.newContext = newContext;
      }
      if (errors.length > 0) throw new Error(`Uncaught errors in the page:\n${errors.join('\n')}`);
    },
    { auto: true },
  ],
});

/**
 * The servers a spec file talks to (test/e2e/servers.ts), started before its first test: a spec run
 * alone starts only these. `sandbox` is the one `page.goto('/')` reaches (the config's baseURL).
 */
export function needsServers(...names: ServerName[]): void {
  test.beforeAll(async () => {
    // Within the slowest server's own limit (large images take seconds to draw).
    test.setTimeout(120_000);
    await startServers(...names);
  });
}

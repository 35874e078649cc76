import { describe, expect, it } from 'vitest';
import { crawlField } from '../../src/server/lookup/queue-crawl-state.ts';
import { readView } from '../../src/server/lookup/queue-view.ts';
import { createQueueIndex } from '../../src/server/state/queue-index.ts';
import { createMemoryQueueIndexStore } from '../../src/server/state/queue-index-store.ts';

/**
 * Found by the late review (1 December): a tab that holds rows, whose list the crawler did not ask because
 * no lookup has shown the key safe, the last one having failed of the service. Its error lost `withheld`
 * (decided by the code alone), and the page said "Still reading this list from the KYC service… The last
 * read of the list failed", where nothing was read or sent.
 */
describe('a withheld read is said as one, whatever failure is its reason', () => {
  it.each([
    ['upstream_unreachable', 'The KYC service could not be reached (connection reset).'],
    ['upstream_unauthorized', "The KYC service rejected this server's API key."],
    ['archiving_check_unavailable', 'The applicants list is read once a lookup here has shown that the API key keeps identity data.'],
  ] as const)('%s: the tab with rows says withheld', async (code, message) => {
    const now = Date.now();
    const index = createQueueIndex(createMemoryQueueIndexStore());
    await index.learnRecord('e', { recordId: 'r1', refId: 'cust-1', status: 'waiting', since: now - 60_000 });
    // As the crawler saves a read it did not send (queue-crawler.ts, `failed`).
    await index.store.writeMeta('e', {
      [crawlField('waiting')]: JSON.stringify({ error: { code, message, at: now, upstreamStatus: null, withheld: true } }),
    });
    const view = await readView(index.store, 'e', {
      query: { status: 'waiting', skip: 0, limit: 50 },
      slaHours: 48,
      now,
      compliance: false,
    });
    if (!view.ok) throw new Error('no view');
    expect(view.data.index?.error).toMatchObject({ message, withheld: true });
  });
});

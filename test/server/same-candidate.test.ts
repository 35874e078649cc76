import { describe, expect, it } from 'vitest';
import { createQueueIndex } from '../../src/server/state/queue-index.ts';
import { createMemoryQueueIndexStore } from '../../src/server/state/queue-index-store.ts';
import { sameCandidateIn } from '../../src/server/trail/same-candidate.ts';

/**
 * An audit search by one id also asks for the candidate's other id, as the queue index knows it
 * (trail/same-candidate.ts): never widened to someone else's lines.
 */
describe("the candidate's other id, for an audit search", () => {
  it('is the one id the indexes agree on, in the environment asked for; none when they disagree or do not know it', async () => {
    const store = createMemoryQueueIndexStore();
    const index = createQueueIndex(store);
    await index.learnRecord('prod', { refId: 'cust-1', recordId: 'aaaaaaaaaaaaaaaaaaaaaaaa', status: 'waiting' });
    await index.learnRecord('staging', { refId: 'cust-1', recordId: 'bbbbbbbbbbbbbbbbbbbbbbbb', status: 'waiting' });
    await index.learnRecord('prod', { refId: 'cust-2', recordId: 'cccccccccccccccccccccccc', status: 'approved' });
    const other = sameCandidateIn(store, ['prod', 'staging']);
    expect(await other({ refId: 'cust-2' })).toEqual({ recordId: 'cccccccccccccccccccccccc' });
    expect(await other({ recordId: 'cccccccccccccccccccccccc' })).toEqual({ refId: 'cust-2' });
    // Two environments, two candidates of one refId: left as asked, unless the environment says which.
    expect(await other({ refId: 'cust-1' })).toBeUndefined();
    expect(await other({ refId: 'cust-1', env: 'staging' })).toEqual({ recordId: 'bbbbbbbbbbbbbbbbbbbbbbbb' });
    // Unknown ids, both ids, neither id: as asked.
    expect(await other({ refId: 'nobody' })).toBeUndefined();
    expect(await other({ refId: 'cust-2', recordId: 'cccccccccccccccccccccccc' })).toBeUndefined();
    expect(await other({ user: 'ana' })).toBeUndefined();
  });
});

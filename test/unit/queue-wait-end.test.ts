import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { listLimitText, waitEnd } from '../../src/app/applicants/queue-limit.ts';
import type { QueueIndexState } from '../../src/kyc/contract/applicants.ts';
import { formatSoon } from '../../src/kyc/view/time.ts';

/**
 * The list limit's line and the view's next read (queue-limit.ts): the line says when the list is read
 * again only while that time is still to come (it stayed, a time already passed, until the next view), and
 * the page asks for the view again when the last wait the view names ends.
 */

const NOW = Date.parse('2026-12-02T13:00:00.000Z');
const at = (offsetMs: number) => new Date(NOW + offsetMs).toISOString();
const index = (extra: Partial<QueueIndexState>): QueueIndexState => ({ at: at(0), dated: 0, of: 0, crawling: true, ...extra });

describe('the list limit, said while it runs', () => {
  it('says the time while it is to come, and nothing once it has passed', () => {
    const limited = index({ limited: { until: at(20_000) } });
    expect(listLimitText(limited, 'utc', new Date(NOW))).toBe(
      `The KYC service is limiting requests; the list will be read again at ${formatSoon(new Date(NOW + 20_000), { zone: 'utc', seconds: true })}.`,
    );
    expect(formatSoon(new Date(NOW + 20_000), { zone: 'utc', seconds: true })).toMatch(/^1:00:20\sPM UTC$/);
    expect(listLimitText(limited, 'utc', new Date(NOW + 20_000))).toBeUndefined();
    expect(listLimitText(limited, 'utc', new Date(NOW + 60_000))).toBeUndefined();
    expect(listLimitText(index({}), 'utc', new Date(NOW))).toBeUndefined();
  });
});

describe('when the view is asked again', () => {
  it('is the end of the last wait the view names that is still to come', () => {
    const error = (until?: string) => ({ message: 'limited', at: at(-5_000), ...(until ? { until } : {}) });
    expect(waitEnd(index({ limited: { until: at(20_000) } }), NOW)).toBe(NOW + 20_000);
    expect(waitEnd(index({ error: error(at(30_000)) }), NOW)).toBe(NOW + 30_000);
    expect(waitEnd(index({ limited: { until: at(20_000) }, error: error(at(30_000)) }), NOW)).toBe(NOW + 30_000);
    expect(waitEnd(index({ limited: { until: at(40_000) }, error: error(at(-1_000)) }), NOW)).toBe(NOW + 40_000);
    // Nothing to wait for: no wait named, one already over, a failure that named none, a time that does not read.
    expect(waitEnd(undefined, NOW)).toBeUndefined();
    expect(waitEnd(index({}), NOW)).toBeUndefined();
    expect(waitEnd(index({ limited: { until: at(-1) }, error: error(at(0)) }), NOW)).toBeUndefined();
    expect(waitEnd(index({ error: error() }), NOW)).toBeUndefined();
    expect(waitEnd(index({ limited: { until: 'soon' } }), NOW)).toBeUndefined();
  });

  it('is never a time already passed, and never misses a wait still to come (any two waits)', () => {
    const offset = fc.option(fc.integer({ min: -600_000, max: 600_000 }), { nil: undefined });
    fc.assert(
      fc.property(offset, offset, (limit, failure) => {
        const view = index({
          ...(limit === undefined ? {} : { limited: { until: at(limit) } }),
          ...(failure === undefined ? {} : { error: { message: 'limited', at: at(0), until: at(failure) } }),
        });
        const end = waitEnd(view, NOW);
        const toCome = [limit, failure].filter((o): o is number => o !== undefined && o > 0);
        expect(end).toBe(toCome.length === 0 ? undefined : NOW + Math.max(...toCome));
        // The line the page shows agrees: a limit is said exactly while its time is to come.
        expect(listLimitText(view, 'utc', new Date(NOW)) !== undefined).toBe(limit !== undefined && limit > 0);
      }),
    );
  });
});

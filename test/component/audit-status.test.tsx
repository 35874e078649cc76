import { render, screen, within } from '@testing-library/react';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AuditStatus, InstanceState } from '../../src/kyc/contract/audit-status.ts';
import { ChainState } from '../../src/app/audit/audit-status.tsx';
import { SourceNote } from '../../src/app/ui/audit-source-note.tsx';
import { atMidday } from './midday.ts';

/**
 * What the audit page says of the table (audit-status.tsx): that every instance's lines are in it only
 * when every instance reported lately and none is behind; an instance whose report is stale is said to
 * be not reporting, its lines after its last report perhaps missing (the compliance lead's review).
 */

const WHOLE = /Every instance's lines are in the audit table/;
const NOT_REPORTING = /Not reporting since .*: its lines after its last report may be missing from the table\./;
const STOPPED_WHOLE = /Stopped at .*\), all its lines in the table\./;
const STOPPED_BEHIND = /Stopped at .*\), with 3 lines not in the table\./;
const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();

function instanceState(
  name: string,
  self: boolean,
  notReporting: boolean,
  behind: boolean,
  minutes: number,
  stopped = false,
): InstanceState {
  return {
    instance: name,
    self,
    reportedAt: minutesAgo(minutes),
    ...(notReporting ? { notReporting: true as const } : {}),
    ...(stopped ? { stopped: true as const } : {}),
    files: [{ file: 'audit.jsonl', lines: 17, intact: true, lastLineAt: minutesAgo(minutes), checkedAt: minutesAgo(minutes) }],
    ...(behind ? { behind: { instance: name, lines: 3, since: minutesAgo(minutes + 1) } } : {}),
  };
}

const statusOf = (instances: InstanceState[]): AuditStatus => ({ source: { kind: 'database' }, instances, retentionDays: 365 });

describe("the audit page's state of the table", () => {
  // "3 minutes ago" is "yesterday" just after midnight.
  beforeEach(atMidday);
  afterEach(() => {
    vi.useRealTimers();
  });

  it('says of an instance that stopped reporting that its lines after its last report may be missing, not that every line is in the table', () => {
    render(<ChainState status={statusOf([instanceState('app2', true, false, false, 0), instanceState('app1', false, true, false, 2)])} />);
    expect(screen.queryByText(WHOLE)).toBeNull();
    expect(screen.getByText(/Some instances' lines may be missing from the audit table \(kept 365 days\)/)).toBeInTheDocument();
    const app1 = screen.getByText('app1', { exact: false, selector: 'h3' }).closest('li')!;
    expect(within(app1).getByText(NOT_REPORTING)).toHaveTextContent(/2 minutes ago/);
  });

  it("warns under a search's results of each instance not reporting, even when nothing else is to be said", () => {
    render(
      <SourceNote
        answer={{ source: { kind: 'database', notReporting: [{ instance: 'app1', since: minutesAgo(2) }] } }}
        onwards="Older searches on."
      />,
    );
    expect(screen.getByText(/^app1: Not reporting since/)).toHaveTextContent(NOT_REPORTING);
  });

  it('says a lag counted since a start while the database was away is "at least", the lines of before uncounted', () => {
    const lag = { instance: 'app1', lines: 1, unknownBefore: minutesAgo(3), problem: 'connect ECONNREFUSED 127.0.0.1:5432' };
    render(<SourceNote answer={{ source: { kind: 'files', fallback: lag.problem, behind: [lag] } }} onwards="Older searches on." />);
    expect(
      screen.getByText(/^At least 1 line of app1 not in the table yet; how many from before app1 started, 3 minutes ago, is unknown/),
    ).toHaveTextContent(/until the database answers \(connect ECONNREFUSED 127\.0\.0\.1:5432\)\.$/);
  });

  it('property: the table is said to hold every line exactly when no instance is behind or not reporting, and each one not reporting is said so', () => {
    // An instance that stopped normally (its last report says so) is never not reporting.
    const instance = fc
      .record({ notReporting: fc.boolean(), stopped: fc.boolean(), behind: fc.boolean(), minutes: fc.integer({ min: 0, max: 600 }) })
      .map((other) => ({ ...other, notReporting: other.notReporting && !other.stopped }));
    fc.assert(
      fc.property(fc.boolean(), fc.array(instance, { maxLength: 4 }), (selfBehind, others) => {
        const instances = [
          instanceState('self', true, false, selfBehind, 0),
          ...others.map((other, index) =>
            instanceState(`app${index}`, false, other.notReporting, other.behind, other.minutes, other.stopped),
          ),
        ];
        const { container, unmount } = render(<ChainState status={statusOf(instances)} />);
        try {
          const whole = !selfBehind && others.every((other) => !other.notReporting && !other.behind);
          expect(WHOLE.test(container.textContent ?? '')).toBe(whole);
          for (const [index, other] of others.entries()) {
            const item = container.querySelector(`[data-instance="app${index}"]`)!;
            expect(NOT_REPORTING.test(item.textContent ?? '')).toBe(other.notReporting);
            // Stopped: all its lines in the table, or how many it left out.
            expect(STOPPED_WHOLE.test(item.textContent ?? '')).toBe(other.stopped && !other.behind);
            expect(STOPPED_BEHIND.test(item.textContent ?? '')).toBe(other.stopped && other.behind);
          }
        } finally {
          unmount();
        }
      }),
      { numRuns: 60 },
    );
  });
});

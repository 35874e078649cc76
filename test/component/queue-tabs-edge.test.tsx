import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { QUEUE_TABS, QueueTabs } from '../../src/app/applicants/applicants-tabs.tsx';

/**
 * On a phone the status tabs are one line that scrolls sideways; it ended mid-word ("⚠ 1 over S") and
 * nothing said that five more tabs lay past it (UX review). Its edge now fades on the side where more lie.
 */
describe("the queue's tab strip on a narrow screen", () => {
  it('says on which side more tabs lie as it scrolls, and nothing once all are shown', () => {
    render(<QueueTabs tabs={QUEUE_TABS} active={undefined} counts={{}} overSla={{}} panelId="p" idPrefix="t" onSelect={() => {}} />);
    const line = screen.getByRole('tablist', { name: 'Candidates by status' });
    // The phone's layout, which jsdom does not compute: 900 px of tabs in a 390 px line.
    let scrollLeft = 0;
    let scrollWidth = 900;
    Object.defineProperty(line, 'clientWidth', { configurable: true, get: () => 390 });
    Object.defineProperty(line, 'scrollWidth', { configurable: true, get: () => scrollWidth });
    Object.defineProperty(line, 'scrollLeft', { configurable: true, get: () => scrollLeft });
    const scrollTo = (at: number) => {
      scrollLeft = at;
      fireEvent.scroll(line);
    };
    scrollTo(0);
    expect(line).toHaveAttribute('data-more', 'right');
    scrollTo(200);
    expect(line).toHaveAttribute('data-more', 'both');
    scrollTo(510);
    expect(line).toHaveAttribute('data-more', 'left');
    // A screen wide enough for every tab: no fade.
    scrollWidth = 390;
    scrollTo(0);
    expect(line).not.toHaveAttribute('data-more');
  });
});

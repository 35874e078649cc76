import type { ReactNode } from 'react';
import { cn } from './cn.ts';

/**
 * A box that scrolls its content. A keyboard user can only scroll it once it has focus, so it is a tab
 * stop (axe's scrollable-region-focusable, WCAG 2.1.1), and a named region (a labelled <section>), so a
 * screen reader says what the stop is.
 */
export function ScrollRegion({ label, className, children }: { label: string; className?: string; children: ReactNode }) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be focusable to be scrolled by keyboard (see above).
    <section aria-label={label} tabIndex={0} className={cn('overflow-auto focus-ring', className)}>
      {children}
    </section>
  );
}

import type { HTMLAttributes } from 'react';
import { cn } from './cn.ts';

/** Each tone sets its own border width, so that no two widths meet in one class list. */
const TONES = {
  plain: 'border border-slate-200 bg-white shadow-sm',
  /** What went wrong. */
  danger: 'border border-red-200 bg-red-50 text-red-950',
  /** What is about to go wrong and cannot be missed: identity data the key deletes. */
  alert: 'border-2 border-red-600 bg-red-50 text-red-950 shadow-sm',
  /** Paused, not broken. */
  warning: 'border border-amber-300 bg-amber-50 text-amber-950',
  /** A fact about the service, not an error. */
  info: 'border border-sky-200 bg-sky-50 text-sky-950',
  /** Where something would be and nothing is. */
  dashed: 'border border-dashed border-slate-300 bg-white text-slate-700',
} as const;

/** `none` for a card whose content reaches its edges (a table). */
const PADDING = { none: '', md: 'p-5', lg: 'p-6' } as const;

export type CardTone = keyof typeof TONES;

/** The classes of a card, for a box that cannot be a `<Card>` (or whose markup another change holds). */
export function cardClass({ tone = 'plain', padding = 'md' }: { tone?: CardTone; padding?: keyof typeof PADDING } = {}): string {
  return cn('rounded-xl', TONES[tone], PADDING[padding]);
}

/** A rounded, bordered panel: a section of a page, an empty state, or (its tone) what went wrong. */
export function Card({
  as: Element = 'div',
  tone,
  padding,
  className,
  ...props
}: HTMLAttributes<HTMLElement> & { as?: 'div' | 'section' | 'header' | 'p'; tone?: CardTone; padding?: keyof typeof PADDING }) {
  return <Element className={cn(cardClass({ tone, padding }), className)} {...props} />;
}

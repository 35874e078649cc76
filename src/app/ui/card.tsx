import type { HTMLAttributes } from 'react';
import { cn } from './cn.ts';

const TONES = {
  plain: 'border-slate-200 bg-white shadow-sm',
  danger: 'border-red-200 bg-red-50 text-red-950',
} as const;

const PADDING = { md: 'p-5', lg: 'p-6' } as const;

/** A rounded, bordered panel: a section of a page, or (tone danger) what went wrong. */
export function Card({
  as: Element = 'div',
  tone = 'plain',
  padding = 'md',
  className,
  ...props
}: HTMLAttributes<HTMLElement> & { as?: 'div' | 'section' | 'header' | 'p'; tone?: keyof typeof TONES; padding?: keyof typeof PADDING }) {
  return <Element className={cn('rounded-xl border', TONES[tone], PADDING[padding], className)} {...props} />;
}

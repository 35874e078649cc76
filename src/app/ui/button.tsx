import type { ButtonHTMLAttributes, Ref } from 'react';
import { cn } from './cn.ts';

export type ButtonVariant = 'primary' | 'secondary' | 'quiet';
export type ButtonSize = 'sm' | 'md' | 'lg' | 'block';

const VARIANTS: Record<ButtonVariant, string> = {
  primary:
    'rounded-md bg-blue-700 font-medium text-white hover:bg-blue-800 focus-ring-offset disabled:opacity-70 aria-disabled:cursor-wait aria-disabled:opacity-70',
  secondary:
    'rounded-md border border-slate-300 bg-white font-medium text-slate-700 hover:bg-slate-50 focus-ring-offset disabled:cursor-not-allowed disabled:opacity-50 aria-disabled:cursor-wait aria-disabled:opacity-50',
  // Reads as a link inside text: no box, no padding.
  quiet: 'rounded font-medium text-blue-700 underline underline-offset-2 focus-ring',
};

const SIZES: Record<ButtonSize, string> = {
  sm: 'px-2 py-0.5 text-xs',
  md: 'px-3 py-1.5 text-sm',
  lg: 'px-4 py-1.5 text-sm',
  block: 'w-full px-4 py-2 text-sm',
};

/**
 * The classes of a button, for a `<Link>` that looks like one too. Padding comes from the size, never
 * from `className`: two paddings in one class list would be decided by stylesheet order.
 */
export function buttonClass({ variant = 'primary', size = 'md' }: { variant?: ButtonVariant; size?: ButtonSize } = {}): string {
  return variant === 'quiet' ? VARIANTS.quiet : cn(VARIANTS[variant], SIZES[size]);
}

/**
 * `busy`: what it does is under way (a refresh, a batch). It is then not pressed again, but it is not
 * `disabled` either: a disabled button loses the keyboard's focus, and the user their place on the page
 * (focus falls to the document). It says so as `aria-disabled`, and ignores presses.
 */
export function Button({
  variant,
  size,
  className,
  // 'button' unless said otherwise: a bare <button> in a form would submit it.
  type = 'button',
  busy = false,
  onClick,
  ...props
}: ButtonHTMLAttributes<HTMLButtonElement> & { variant?: ButtonVariant; size?: ButtonSize; busy?: boolean; ref?: Ref<HTMLButtonElement> }) {
  return (
    <button
      type={type}
      className={cn(buttonClass({ variant, size }), className)}
      aria-disabled={busy || undefined}
      onClick={(event) => {
        // Nor does a busy submit button submit its form again.
        if (busy) return event.preventDefault();
        onClick?.(event);
      }}
      {...props}
    />
  );
}

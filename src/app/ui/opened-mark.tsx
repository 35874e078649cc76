import { cn } from './cn.ts';

/** "Opened": this tab opened the candidate already (the queue's rows, a batch's); in words, not a colour alone. */
export function OpenedMark({ className }: { className?: string }) {
  return (
    <span
      className={cn('rounded bg-slate-100 px-1.5 py-0.5 text-xs font-medium text-slate-700 ring-1 ring-slate-300', className)}
      data-visited
    >
      <span aria-hidden="true">✓ </span>Opened
    </span>
  );
}

import { useId, type ReactNode } from 'react';
import { Card } from './card.tsx';

/** A titled card: one section of the candidate page. */
export function Section({ title, children }: { title: string; children: ReactNode }) {
  const id = useId();
  return (
    <Card as="section" aria-labelledby={id} className="min-w-0">
      <h2 id={id} className="mb-3 text-base font-semibold text-slate-900">
        {title}
      </h2>
      {children}
    </Card>
  );
}

/** A calm notice inside a section: raw data shown because it could not be decoded, and the like. */
export function Notice({ children, tone = 'info' }: { children: ReactNode; tone?: 'info' | 'warning' }) {
  const style = tone === 'warning' ? 'border-amber-300 bg-amber-50 text-amber-950' : 'border-sky-200 bg-sky-50 text-sky-950';
  return (
    <p role="note" className={`rounded-md border px-3 py-2 text-sm ${style}`}>
      {children}
    </p>
  );
}

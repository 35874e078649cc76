import { useId, type ReactNode } from 'react';

/** A titled card: one section of the candidate page. */
export function Section({
  title,
  children,
  actions,
  className = '',
  level = 2,
}: {
  title: string;
  children: ReactNode;
  actions?: ReactNode;
  className?: string;
  level?: 2 | 3;
}) {
  const id = useId();
  const Heading = level === 2 ? 'h2' : 'h3';
  return (
    <section aria-labelledby={id} className={`min-w-0 rounded-xl border border-slate-200 bg-white p-5 shadow-sm ${className}`}>
      <div className="mb-3 flex items-center justify-between gap-3">
        <Heading id={id} className="text-base font-semibold text-slate-900">
          {title}
        </Heading>
        {actions}
      </div>
      {children}
    </section>
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

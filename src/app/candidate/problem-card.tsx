import type { ReactNode } from 'react';
import { Link } from '../navigation.tsx';
import { Card } from '../ui/card.tsx';

/** A candidate page that shows no record: what went wrong, what to do about it, and New lookup. */
export function ProblemCard({
  title,
  body,
  action,
  home,
  kind,
}: {
  title: string;
  body: ReactNode;
  action?: ReactNode;
  /** Where New lookup goes: the home page of the page's environment, or the default one's. */
  home: string;
  /** The failure's code, for the tests and the styles (`data-error-kind`). */
  kind: string;
}) {
  return (
    <Card role="alert" tone="danger" className="space-y-3" data-error-kind={kind}>
      <h1 className="text-xl font-semibold break-words">{title}</h1>
      <div className="text-sm break-words">{body}</div>
      <div className="flex flex-wrap gap-3">
        {action}
        {/* Alone on its line: a finger's height on a phone, as the buttons beside it (data-touch, styles.css). */}
        <Link
          to={home}
          data-touch
          className="inline-flex items-center rounded-md border border-red-300 bg-white px-3 py-1.5 text-sm font-medium text-red-900 hover:bg-red-100 focus-ring"
        >
          New lookup
        </Link>
      </div>
    </Card>
  );
}

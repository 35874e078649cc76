import type { ReactNode } from 'react';
import { Card } from '../ui/card.tsx';

/**
 * The candidate page's shape while a lookup runs: the first load's fallback while the page's code loads
 * (app.tsx), and the frame of the skeleton that then says how long the service has been waited for and
 * how much has arrived (candidate-skeleton.tsx), which stays out of the first load. `status` is what the
 * page is doing, where that is not yet looking the candidate up.
 */
export function LookupPlaceholder({ status, children }: { status?: ReactNode; children?: ReactNode }) {
  return (
    <div className="space-y-5" aria-busy="true">
      <Card>
        <p role="status" className="font-medium text-slate-900">
          {status ?? 'Looking the candidate up…'}
        </p>
        {children}
      </Card>
      <div className="grid animate-pulse gap-5 lg:grid-cols-3" aria-hidden="true">
        <div className="h-64 rounded-xl bg-slate-200" />
        <div className="h-64 rounded-xl bg-slate-200 lg:col-span-2" />
      </div>
    </div>
  );
}

import { formatBytes } from '../../kyc/view/bytes.ts';
import { Card } from '../ui/card.tsx';
import type { DownloadProgress } from '../api/fetch-candidate.ts';

/** While a lookup runs: the page's shape, and for a large response how much has arrived. */
export function CandidateSkeleton({ progress }: { progress?: DownloadProgress }) {
  const percent = progress?.total ? Math.min(100, Math.round((progress.received / progress.total) * 100)) : undefined;
  return (
    <div className="space-y-5" aria-busy="true">
      <Card>
        <p role="status" className="font-medium text-slate-900">
          Looking the candidate up…
        </p>
        {progress && progress.received > 0 && (
          <div className="mt-3">
            <progress
              className="h-2 w-full overflow-hidden rounded [&::-webkit-progress-bar]:bg-slate-200 [&::-webkit-progress-value]:bg-blue-600"
              max={progress.total ?? undefined}
              value={progress.total ? progress.received : undefined}
              aria-label="Download progress"
            />
            <p className="mt-1 text-sm text-slate-600">
              {formatBytes(progress.received)}
              {progress.total ? ` of ${formatBytes(progress.total)} (${percent} %)` : ''} received
            </p>
          </div>
        )}
      </Card>
      <div className="grid animate-pulse gap-5 lg:grid-cols-3" aria-hidden="true">
        <div className="h-64 rounded-xl bg-slate-200" />
        <div className="h-64 rounded-xl bg-slate-200 lg:col-span-2" />
      </div>
    </div>
  );
}

import { Link } from '../navigation.tsx';
import type { SampleCandidate } from '../../kyc/contract/api.ts';
import { candidatePath } from '../routes.ts';
import { StatusBadge } from '../ui/status-badge.tsx';

/** The sandbox's sample candidates as one-click examples. Support users get them without names, titled by their ids. */
export function SampleList({ samples, namesHidden = false }: { samples: SampleCandidate[]; namesHidden?: boolean }) {
  return (
    <section aria-labelledby="samples-heading" className="space-y-3">
      <h2 id="samples-heading" className="text-lg font-semibold text-slate-900">
        Sample candidates
      </h2>
      <p className="text-sm text-slate-600">
        Made-up candidates of the embedded sandbox{namesHidden ? ', by their ids (support users are not shown names)' : ''}. Click one to
        open it.
      </p>
      <ul className="grid gap-3 md:grid-cols-2">
        {samples.map((sample) => (
          <li key={`${sample.kind}:${sample.id}`} className="min-w-0">
            <Link
              to={candidatePath(sample.kind, sample.id)}
              className="block h-full rounded-lg border border-slate-200 bg-white p-4 shadow-sm hover:border-blue-400 hover:shadow focus-ring-offset"
            >
              <span className="flex flex-wrap items-center justify-between gap-2">
                {/* Without names (support users), the id is the card's title: each link's name starts with what tells them apart. */}
                {namesHidden ? (
                  <span className="min-w-0 font-mono text-sm font-medium break-all text-slate-900">
                    {sample.kind} {sample.id}
                  </span>
                ) : (
                  <span className="font-medium break-words text-slate-900">{sample.name ?? 'Name not available (archived)'}</span>
                )}
                <StatusBadge status={sample.status} size="sm" />
              </span>
              <span className="mt-1 block text-sm text-slate-600">{sample.summary}</span>
              {!namesHidden && (
                <span className="mt-2 block font-mono text-xs break-all text-slate-500">
                  {sample.kind} {sample.id}
                </span>
              )}
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}

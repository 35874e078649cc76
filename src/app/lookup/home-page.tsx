import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Suspense, useEffect } from 'react';
import type { SampleCandidate } from '../../kyc/contract/api.ts';
import { readsFullRecord } from '../../kyc/contract/roles.ts';
import { useEnvironment } from '../environment/use-environment.ts';
import { useLiveEvents } from '../live/live-stream.ts';
import { useLocation } from '../navigation.tsx';
import { metaQueries } from '../meta/meta-query.ts';
import { lookupDraftOf } from '../routes.ts';
import { sessionQueries } from '../session/session-query.ts';
import { Card } from '../ui/card.tsx';
import { lazyNamed } from '../ui/lazy-named.ts';
import { LookupForm } from './lookup-form.tsx';

/** Shown only where the key archives after extract: fetched then, not part of the first load (bundle-size.test.ts). */
const ArchivingKeyBanner = lazyNamed(() => import('./archiving-key-banner.tsx'), 'ArchivingKeyBanner');
/** Below the form, fetched with the page's first paint rather than in the first load (bundle-size.test.ts). */
const RecentLookups = lazyNamed(() => import('../recent/recent-list.tsx'), 'RecentLookups');
const SampleList = lazyNamed(() => import('./sample-list.tsx'), 'SampleList');

export function HomePage() {
  const { environment, info } = useEnvironment();
  // Switched here from a candidate page: its id waits in the box until Enter.
  const draft = lookupDraftOf(useLocation().state);
  // Fresh enough to show a key found to archive after extract since this page was last opened.
  const meta = useQuery({ ...metaQueries.current(environment), staleTime: 60_000 });
  const role = useQuery(sessionQueries.current()).data?.role;
  const archivingKey = readsFullRecord(role) ? meta.data?.archivingKey : undefined;
  useSamplesLive(meta.data?.samples, environment);
  useEffect(() => {
    document.title = 'Candidate Lookup';
  }, []);
  return (
    <div className="space-y-8">
      {archivingKey && (
        <Suspense fallback={null}>
          <ArchivingKeyBanner archivingKey={archivingKey} />
        </Suspense>
      )}
      <Card as="section" padding="lg">
        <h1 className="text-2xl font-semibold text-slate-900">Look up a candidate</h1>
        <p className="mt-1 mb-4 text-sm text-slate-600">
          By <strong>refId</strong> (the id your company gave the customer, what support agents usually have) or by{' '}
          <strong>recordId</strong> (the KYC record's id). Press{' '}
          <kbd className="rounded border border-slate-300 px-1 font-mono text-xs">/</kbd> anywhere to come back to this box.
        </p>
        {draft && (
          <p role="status" className="mb-3 rounded-md border border-slate-300 bg-slate-50 px-3 py-2 text-sm text-slate-800">
            Switched to {info ? `the ${info.label} environment` : 'another environment'}: press Enter to look up {draft.kind}{' '}
            <code className="font-mono break-all">{draft.id}</code> here.
          </p>
        )}
        <LookupForm autoFocus current={draft} key={draft ? `${draft.kind}:${draft.id}` : 'empty'} />
        <Suspense fallback={null}>
          <RecentLookups />
        </Suspense>
      </Card>
      {meta.data?.samples && meta.data.samples.length > 0 && (
        <Suspense fallback={null}>
          <SampleList samples={meta.data.samples} namesHidden={role === 'support'} />
        </Suspense>
      )}
    </div>
  );
}

/** A live update about a sample candidate (a decision taken in another tab) reads the samples anew: each card shows its status. */
function useSamplesLive(samples: readonly SampleCandidate[] | undefined, environment: string | undefined): void {
  const queryClient = useQueryClient();
  useLiveEvents((event) => {
    if (!samples?.some((sample) => sample.id === event.refId || sample.id === event.recordId)) return;
    void queryClient.invalidateQueries({ queryKey: metaQueries.current(environment).queryKey });
  });
}

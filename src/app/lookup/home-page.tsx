import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { metaQuery } from '../meta/meta-query.ts';
import { LookupForm } from './lookup-form.tsx';
import { SampleList } from './sample-list.tsx';

export function HomePage() {
  const meta = useQuery(metaQuery());
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    document.title = 'Candidate Lookup';
  }, []);
  return (
    <div className="space-y-8">
      <section className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm">
        <h1 ref={heading} className="text-2xl font-semibold text-slate-900">
          Look up a candidate
        </h1>
        <p className="mt-1 mb-4 text-sm text-slate-600">
          By <strong>refId</strong> (your own user id, what support agents usually have) or by <strong>recordId</strong> (the KYC record's
          id).
        </p>
        <LookupForm />
      </section>
      {meta.data?.samples && meta.data.samples.length > 0 && <SampleList samples={meta.data.samples} />}
    </div>
  );
}

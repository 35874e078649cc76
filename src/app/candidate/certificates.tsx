import { certificateTitle, parseCertificate } from '../../kyc/view/certificate.ts';
import { isoTimestampSchema } from '../../kyc/contract/schema.ts';
import { formatLocalDateTime } from '../../kyc/view/time.ts';
import { LongText } from '../ui/long-text.tsx';
import { CopyButton } from '../ui/copy-button.tsx';
import { ScrollRegion } from '../ui/scroll-region.tsx';
import { Notice, Section } from '../ui/section.tsx';

/** One collapsible panel per certificate, collapsed at first; raw text with a notice when it is not JSON. */
export function Certificates({ certs }: { certs: Record<string, string> }) {
  const entries = Object.entries(certs);
  return (
    <Section title="Certificates">
      {entries.length === 0 ? (
        <p className="text-sm text-slate-600">No certificates.</p>
      ) : (
        <div className="space-y-3">
          {entries.map(([slug, raw]) => (
            <CertificatePanel key={slug} slug={slug} raw={raw} />
          ))}
        </div>
      )}
    </Section>
  );
}

function CertificatePanel({ slug, raw }: { slug: string; raw: string }) {
  const parsed = parseCertificate(raw);
  const title = certificateTitle(slug);
  // Only a full ISO timestamp is shown in local time; anything else as written.
  const issueDate = parsed.ok ? parsed.summary.issueDate : undefined;
  const issuedAt = issueDate && isoTimestampSchema.safeParse(issueDate).success ? new Date(issueDate) : undefined;
  return (
    <details className="group min-w-0 rounded-lg border border-slate-200" data-cert={slug}>
      <summary className="flex cursor-pointer list-none flex-wrap items-center gap-x-3 gap-y-1 rounded-lg px-4 py-3 hover:bg-slate-50 focus-ring">
        <span aria-hidden="true" className="text-slate-500 transition-transform group-open:rotate-90">
          ▶
        </span>
        <span className="font-medium text-slate-900">{title}</span>
        <code className="text-xs break-all text-slate-500">{slug}</code>
        {parsed.ok ? (
          <>
            {parsed.summary.results.map((result) => (
              <span key={result} className="rounded bg-slate-100 px-1.5 py-0.5 font-mono text-xs text-slate-800">
                {result}
              </span>
            ))}
            {issueDate && (
              <span className="text-xs text-slate-600" title={issuedAt ? issueDate : undefined}>
                issued {issuedAt ? formatLocalDateTime(issuedAt) : <LongText text={issueDate} limit={40} />}
              </span>
            )}
          </>
        ) : (
          <span className="rounded bg-amber-100 px-1.5 py-0.5 text-xs font-medium text-amber-900">not valid JSON</span>
        )}
      </summary>
      <div className="space-y-2 border-t border-slate-200 p-4">
        {!parsed.ok && <Notice tone="warning">{parsed.problem} The raw text is shown as received.</Notice>}
        <div className="flex justify-end">
          <CopyButton value={parsed.ok ? parsed.pretty : raw} label={`${title} certificate`} />
        </div>
        <ScrollRegion
          label={`${title} certificate text`}
          className="max-h-96 rounded bg-slate-900 p-3 text-xs text-slate-100 focus-visible:outline-offset-2"
        >
          <pre className="break-all whitespace-pre-wrap">{parsed.ok ? parsed.pretty : raw}</pre>
        </ScrollRegion>
      </div>
    </details>
  );
}

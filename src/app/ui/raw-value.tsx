import { Notice } from './section.tsx';
import { ScrollRegion } from './scroll-region.tsx';

/** An attribute that did not decode: what was wrong, and the text as received in a scrollable box. */
export function RawValue({ raw, problem }: { raw: string; problem: string }) {
  return (
    <div className="space-y-2">
      <Notice tone="warning">{problem} Shown as received.</Notice>
      <ScrollRegion label="Value as received" className="max-h-48 rounded bg-slate-50 p-2 text-xs text-slate-800">
        <pre className="break-all whitespace-pre-wrap">{raw}</pre>
      </ScrollRegion>
    </div>
  );
}

import { useState } from 'react';
import type { LookupKind } from '../../kyc/contract/lookup.ts';
import { batchCsv, batchFileName, batchHtml, batchTsv, type BatchLine } from '../../kyc/view/batch-export.ts';
import { Button } from '../ui/button.tsx';
import { useFlash } from '../ui/use-flash.ts';
import { saveBlob } from '../ui/save-blob.ts';
import { useZoneMode } from '../ui/zone-mode.ts';

/**
 * Download as CSV and copy as a table. The CSV is made here in the browser and handed over as a blob:
 * the server never stores it.
 */
export function BatchActions({ lines, kind, batch }: { lines: BatchLine[]; kind: LookupKind; batch: readonly string[] }) {
  // "Table copied" goes after a while; a failure stays until the next try (it was gone in 2 s).
  const [shown, setCopied] = useFlash<'idle' | 'copied' | 'failed'>('idle', 2000);
  // What was said is about the batch it was copied from (its ids): not about the next one looked up.
  const [about, setAbout] = useState<readonly string[]>();
  const copied = about === batch ? shown : 'idle';
  // Dates a person reads beside the ISO ones, in the zone the page shows (yours, or UTC with UTC times on).
  const zone = { zone: useZoneMode() };

  const download = () =>
    saveBlob(new Blob([batchCsv(lines, kind, zone)], { type: 'text/csv;charset=utf-8' }), batchFileName(kind, new Date()));

  const copy = async () => {
    setAbout(batch);
    try {
      const tsv = batchTsv(lines, kind, zone);
      // Rich editors (tickets, mail) paste the HTML table; spreadsheets and plain fields the tab-separated text.
      if (typeof ClipboardItem !== 'undefined' && navigator.clipboard.write) {
        await navigator.clipboard.write([
          new ClipboardItem({
            'text/plain': new Blob([tsv], { type: 'text/plain' }),
            'text/html': new Blob([batchHtml(lines, kind, zone)], { type: 'text/html' }),
          }),
        ]);
      } else {
        await navigator.clipboard.writeText(tsv);
      }
      setCopied('copied');
    } catch {
      setCopied('failed', { stays: true });
    }
  };

  return (
    <div className="flex flex-wrap items-center gap-2 print:hidden">
      <Button variant="secondary" onClick={download}>
        Download CSV
      </Button>
      <Button variant="secondary" onClick={copy}>
        Copy as table
      </Button>
      <span aria-live="polite" className={copied === 'failed' ? 'text-sm text-red-700' : 'text-sm text-slate-600'}>
        {copied === 'copied' ? 'Table copied' : copied === 'failed' ? 'Copy failed: the browser refused access to the clipboard.' : ''}
      </span>
    </div>
  );
}

import { useState } from 'react';
import { type BatchHandoff, batchExportOf } from '../../kyc/contract/batch-handoff.ts';
import type { LookupKind } from '../../kyc/contract/lookup.ts';
import { batchCsv, batchFileName, batchHtml, batchTsv, type BatchLine } from '../../kyc/view/batch-export.ts';
import { Button } from '../ui/button.tsx';
import { useFlash } from '../ui/use-flash.ts';
import { saveBlob } from '../ui/save-blob.ts';
import { useZoneMode } from '../ui/zone-mode.ts';
import { recordExport } from '../handoff/record-export.ts';

type Said = 'idle' | 'copied' | 'failed' | { refused: string };

/**
 * Download as CSV and copy as a table. The CSV is made here in the browser and handed over as a blob:
 * the server never stores it. Each first writes its audit line (`POST /api/export`, `batch_csv` or
 * `batch_copy`, naming the candidates found): refused, nothing is saved or copied, and the reason stays.
 */
export function BatchActions(props: { lines: BatchLine[]; kind: LookupKind; batch: readonly string[]; environment: string | undefined }) {
  const { lines, kind, batch, environment } = props;
  // "Table copied" goes after a while; a failure stays until the next try (it was gone in 2 s).
  const [shown, setCopied] = useFlash<Said>('idle', 2000);
  // One hand-off at a time: a double-click wrote a second line.
  const [busy, setBusy] = useState(false);
  // What was said is about the batch it was copied from (its ids): not about the next one looked up.
  const [about, setAbout] = useState<readonly string[]>();
  const copied = about === batch ? shown : 'idle';
  // Dates a person reads beside the ISO ones, in the zone the page shows (yours, or UTC with UTC times on).
  const zone = { zone: useZoneMode() };

  /** The hand-off's line first; false, with its reason said, when it could not be written. */
  const recorded = async (what: BatchHandoff) => {
    setAbout(batch);
    try {
      await recordExport(environment, batchExportOf(what, kind, lines));
      return true;
    } catch (error) {
      setCopied({ refused: (error as Error).message }, { stays: true });
      return false;
    }
  };
  const once = (act: () => Promise<void>) => () => {
    if (busy) return;
    setBusy(true);
    void act().finally(() => setBusy(false));
  };

  const download = async () => {
    if (!(await recorded('batch_csv'))) return;
    setCopied('idle');
    saveBlob(new Blob([batchCsv(lines, kind, zone)], { type: 'text/csv;charset=utf-8' }), batchFileName(kind, new Date()));
  };

  const copy = async () => {
    if (!(await recorded('batch_copy'))) return;
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
      <Button variant="secondary" onClick={once(download)}>
        Download CSV
      </Button>
      <Button variant="secondary" onClick={once(copy)}>
        Copy as table
      </Button>
      <span aria-live="polite" className={copied === 'copied' ? 'text-sm text-slate-600' : 'text-sm text-red-700'}>
        {saidText(copied)}
      </span>
    </div>
  );
}

function saidText(said: Said): string {
  if (said === 'copied') return 'Table copied';
  if (said === 'failed') return 'Copy failed: the browser refused access to the clipboard.';
  return said === 'idle' ? '' : `Not recorded in the audit log, so nothing was saved or copied: ${said.refused}`;
}

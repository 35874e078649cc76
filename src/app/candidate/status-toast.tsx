import { useState } from 'react';
import { statusInfo } from '../../kyc/contract/status.ts';
import { formatDateTime, formatRelative } from '../../kyc/view/time.ts';
import { Button } from '../ui/button.tsx';
import { useNow } from '../ui/use-now.ts';
import { useZoneMode } from '../ui/zone-mode.ts';
import { changeTime, type LiveUpdate } from './live-status.tsx';
import { focusPageHeading } from '../ui/focus-heading.ts';

/**
 * A live status change where the reviewer is (issue 33): a notice fixed to the bottom of the window (the top on a phone),
 * "In review → Rejected, 5 seconds ago — from the KYC service", seen however far down the page is
 * scrolled, until dismissed or the next change takes its place. The line at the top of the page keeps
 * the status's own date. Screen readers hear it from a live region that is there before the news, in
 * words that do not change as the time passes (the visible time does).
 */
export function StatusChangeToast({ update }: { update: LiveUpdate | undefined }) {
  const [dismissed, setDismissed] = useState<number>();
  const change = update?.kind === 'status' && update.from !== undefined && update.from !== update.checked.status ? update : undefined;
  const open = change !== undefined && dismissed !== change.receivedAt;
  const words = change && `${statusInfo(change.from!).label} → ${statusInfo(change.checked.status).label}`;
  return (
    <>
      {/* Room at the page's end, so that the notice never hides its last lines (the Simulate buttons, a certificate). */}
      {open && <div aria-hidden="true" className="hidden h-28 sm:block print:hidden" />}
      {/*
        On a phone the notice sits at the top of the screen, over the header's buttons: at the bottom it hid
        what a support agent's first screen ends with, Copy reply. From `sm` up, at the bottom right.
      */}
      <div className="pointer-events-none fixed inset-x-0 top-0 z-40 flex justify-center p-3 sm:top-auto sm:bottom-0 sm:justify-end sm:p-4 print:hidden">
        {/* A live region without the status role: the page's own status messages stay the one "status" there is. */}
        <p aria-live="polite" className="sr-only" data-testid="status-change-announcement">
          {open && `Status changed: ${words} — from the KYC service.`}
        </p>
        {open && (
          <section
            aria-label="Status change"
            data-testid="status-toast"
            className="pointer-events-auto flex max-w-md flex-wrap items-center gap-3 rounded-xl border border-blue-300 bg-white px-4 py-3 text-sm text-slate-900 shadow-lg ring-1 ring-blue-100"
          >
            <p className="min-w-0 flex-1">
              <strong className="font-semibold">{words}</strong>, <Ago at={changeTime(change)} /> — from the KYC service
            </p>
            <Button
              variant="secondary"
              size="md"
              onClick={() => {
                setDismissed(change.receivedAt);
                // The button goes with the notice: the keyboard goes to the page's heading, not to the document.
                focusPageHeading();
              }}
            >
              Dismiss
            </Button>
          </section>
        )}
      </div>
    </>
  );
}

/** How long ago the status was reached (formatRelative: never in the future), the moment itself on hover. */
function Ago({ at }: { at: Date }) {
  const now = useNow(5000);
  const zone = useZoneMode();
  return (
    <time dateTime={at.toISOString()} title={formatDateTime(at, { zone, seconds: true })}>
      {formatRelative(at, now, { zone })}
    </time>
  );
}

import { statusInfo } from '../../kyc/contract/status.ts';
import { statusTone } from '../../kyc/view/status-tone.ts';

/** A solid marker in the status's colour, for the timeline. */
export function toneDotClass(status: string): string {
  return statusTone(status).dot;
}

/** A status as a label and an icon in its colour (STATUS_TONES); colour is never the only signal. */
export function StatusBadge({ status, size = 'md' }: { status: string; size?: 'sm' | 'md' }) {
  const info = statusInfo(status);
  const tone = statusTone(status);
  const sizing = size === 'sm' ? 'px-2 py-0.5 text-xs' : 'px-2.5 py-1 text-sm';
  return (
    <span
      title={info.description}
      data-status={status}
      data-tone={tone.family}
      className={`inline-flex max-w-full items-center gap-1.5 rounded-full font-medium ${sizing} ${tone.chip}`}
    >
      <span aria-hidden="true">{tone.icon}</span>
      <span className="truncate">{info.label}</span>
    </span>
  );
}

export function ArchivedBadge() {
  return (
    <span
      title="The service has archived this candidate's identity data."
      className="inline-flex items-center gap-1.5 rounded-full bg-slate-700 px-2.5 py-1 text-sm font-medium text-white"
    >
      <span aria-hidden="true">▣</span>
      Archived
    </span>
  );
}

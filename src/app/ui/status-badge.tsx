import { statusInfo, type StatusTone } from '../../kyc/contract/status.ts';

const TONE: Record<StatusTone, { className: string; dot: string; icon: string }> = {
  neutral: { className: 'bg-slate-100 text-slate-800 ring-slate-300', dot: 'bg-slate-600', icon: '•' },
  pending: { className: 'bg-amber-50 text-amber-900 ring-amber-300', dot: 'bg-amber-500', icon: '◔' },
  progress: { className: 'bg-sky-50 text-sky-900 ring-sky-300', dot: 'bg-sky-600', icon: '◑' },
  success: { className: 'bg-emerald-50 text-emerald-900 ring-emerald-300', dot: 'bg-emerald-600', icon: '✓' },
  warning: { className: 'bg-orange-50 text-orange-900 ring-orange-300', dot: 'bg-orange-500', icon: '!' },
  danger: { className: 'bg-red-50 text-red-900 ring-red-300', dot: 'bg-red-600', icon: '✕' },
};

/** A solid marker in the status's colour, for the timeline. */
export function toneDotClass(tone: StatusTone): string {
  return TONE[tone].dot;
}

/** A status as a label and an icon; colour is never the only signal. */
export function StatusBadge({ status, size = 'md' }: { status: string; size?: 'sm' | 'md' }) {
  const info = statusInfo(status);
  const tone = TONE[info.tone];
  const sizing = size === 'sm' ? 'px-2 py-0.5 text-xs' : 'px-2.5 py-1 text-sm';
  return (
    <span
      title={info.description}
      data-status={status}
      className={`inline-flex max-w-full items-center gap-1.5 rounded-full font-medium ring-1 ring-inset ${sizing} ${tone.className}`}
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

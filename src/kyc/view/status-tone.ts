import { isKnownStatus, type KnownStatus } from '../contract/status.ts';

/**
 * The colour family of a status. `rejected` and `blocked` share the negative one, so that red always means
 * a decision against the candidate; every other documented status has a family of its own, so that a
 * reviewer tells "waiting for us" from "in review", "asked again" and "not yet submitted" at a glance.
 */
export type StatusFamily = 'incomplete' | 'pending' | 'progress' | 'requested' | 'positive' | 'negative' | 'neutral';

export interface StatusTone {
  family: StatusFamily;
  /** The colour in words, as the legend in docs/using.md says it. */
  colour: string;
  /** Beside the label on every chip, so that colour is never the only signal. */
  icon: string;
  /** The chip's Tailwind classes (background, text, outline). */
  chip: string;
  /** The status history's marker for the current step. */
  dot: string;
}

/**
 * The one table of status looks: the header, the decision summary, the status history, the applicants
 * queue, the batch table, recent lookups and the sandbox samples all read it through `statusTone`.
 */
export const STATUS_TONES: Readonly<Record<KnownStatus, StatusTone>> = {
  incomplete: {
    family: 'incomplete',
    colour: 'grey, dashed outline',
    icon: '◌',
    chip: 'border border-dashed border-slate-500 bg-white text-slate-800',
    dot: 'border-2 border-dashed border-slate-500 bg-white',
  },
  waiting: {
    family: 'pending',
    colour: 'amber',
    icon: '◔',
    chip: 'bg-amber-50 text-amber-900 ring-1 ring-inset ring-amber-300',
    dot: 'bg-amber-500',
  },
  inreview: {
    family: 'progress',
    colour: 'blue',
    icon: '◑',
    chip: 'bg-sky-50 text-sky-900 ring-1 ring-inset ring-sky-300',
    dot: 'bg-sky-600',
  },
  review_requested: {
    family: 'requested',
    colour: 'violet',
    icon: '↻',
    chip: 'bg-violet-50 text-violet-900 ring-1 ring-inset ring-violet-300',
    dot: 'bg-violet-600',
  },
  approved: {
    family: 'positive',
    colour: 'green',
    icon: '✓',
    chip: 'bg-emerald-50 text-emerald-900 ring-1 ring-inset ring-emerald-300',
    dot: 'bg-emerald-600',
  },
  rejected: {
    family: 'negative',
    colour: 'red',
    icon: '✕',
    chip: 'bg-red-50 text-red-900 ring-1 ring-inset ring-red-300',
    dot: 'bg-red-500',
  },
  blocked: {
    family: 'negative',
    colour: 'red, filled',
    icon: '⊘',
    chip: 'bg-red-700 text-white ring-1 ring-inset ring-red-800',
    dot: 'bg-red-800',
  },
};

/** A status this tool does not know: neutral, shown by its raw value. */
export const UNKNOWN_STATUS_TONE: StatusTone = {
  family: 'neutral',
  colour: 'grey',
  icon: '•',
  chip: 'bg-slate-100 text-slate-800 ring-1 ring-inset ring-slate-300',
  dot: 'bg-slate-600',
};

export function statusTone(status: string): StatusTone {
  return isKnownStatus(status) ? STATUS_TONES[status] : UNKNOWN_STATUS_TONE;
}

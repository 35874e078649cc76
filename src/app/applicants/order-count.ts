import type { QueueOrder } from '../../kyc/contract/applicants.ts';
import { dateDoubt } from '../../kyc/contract/date-doubt.ts';

/**
 * Which of the age order's counts a place is in, as the server counts them (queue-view.ts): `known`, a
 * real date; `noDate`, none in the record or a placeholder; `future`, dated ahead (date-doubt.ts);
 * undefined, a date still to be looked up.
 */
export type OrderCount = 'known' | 'noDate' | 'future';

export function orderCountOf(place: { since?: number; dateless?: true }, now: number): OrderCount | undefined {
  if (place.since === undefined) return place.dateless ? 'noDate' : undefined;
  const doubt = dateDoubt(place.since, now);
  return doubt === 'future' ? 'future' : doubt === 'placeholder' ? 'noDate' : 'known';
}

type AgeOrder = Extract<QueueOrder, { by: 'age' }>;

/** The age order's figures after a move: each count shifted by its own, `noDate` and `future` only while there are such rows. */
export function movedAgeOrder(order: AgeOrder, shifts: Record<OrderCount, number>, size: number): AgeOrder {
  const { noDate, future, ...rest } = order;
  const positive = (kind: 'noDate' | 'future', count: number | undefined) => {
    const next = Math.max(0, (count ?? 0) + shifts[kind]);
    return next > 0 ? { [kind]: next } : {};
  };
  return {
    ...rest,
    known: Math.max(0, order.known + shifts.known),
    of: Math.max(0, order.of + size),
    ...positive('noDate', noDate),
    ...positive('future', future),
  };
}

/**
 * What is left of a wait an answer stated (a `Retry-After` of so many seconds) at a moment gone by: the
 * number said is true only the moment it was said. Whoever repeats the wait later (the archiving gate's
 * 429 to the lookups that waited behind it, the queue's tab left unread by one) says what is left of it,
 * in whole seconds rounded up, as the service's own wait is said (service-wait.ts): never a second early.
 */

/** The whole seconds left of a wait of `seconds` stated at `at` (ms, on the clock `now` reads); 0 once it has passed. */
export function secondsLeft(wait: { seconds: number; at: number }, now: number): number {
  return Math.max(0, Math.ceil((wait.at + wait.seconds * 1000 - now) / 1000));
}

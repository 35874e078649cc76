import { ApiFailure } from '../http/api-failure.ts';
import { noteSignedIn } from '../http/connection-guard.ts';
import type { SignedInCall } from '../http/routes.ts';
import type { Metrics } from './metrics.ts';

/**
 * The requests each signed-in user has open at once on this instance, capped. A connection leaves the
 * caps on anonymous ones once a request on it is signed in (http/connection-guard.ts), and a route reads
 * its body only after that: one user who sent thousands of bodies a byte at a time held almost every
 * file descriptor of the server. Past the cap a request is answered 429 `rate_limited` (the app shows
 * it, with its wait) and its connection closed, before anything of its body is read.
 *
 * Counted in this process, as the event streams' cap is (live/event-stream.ts): what is held is this
 * instance's descriptors, released the moment the answer ends. rate-limiter-flexible counts over a time
 * window and forgets the count at its end, which a batch or a live stream open longer would outlast.
 */
export interface OpenRequests {
  /**
   * Counts the call as open until its answer ends, and lets its connection out of the caps on anonymous
   * ones; past the cap throws the refusal (the count unchanged, the connection still capped as anonymous).
   */
  admit(call: SignedInCall): void;
}

/** A wait worth saying: the requests under way are most often answered in a second or two. */
const RETRY_AFTER_SECONDS = 2;

export function capOpenRequests(cap: number, keyOf: (call: SignedInCall) => string, metrics: Pick<Metrics, 'rateLimited'>): OpenRequests {
  const held = new Map<string, number>();
  return {
    admit(call) {
      if (cap <= 0) return noteSignedIn(call.req);
      const key = keyOf(call);
      const open = held.get(key) ?? 0;
      if (open >= cap) {
        metrics.rateLimited.inc({ limit: 'open_requests' });
        // Answered, then closed: the rest of the body is not read (Node closes once the answer is written).
        call.res.setHeader('connection', 'close');
        call.req.pause();
        throw new ApiFailure(
          'rate_limited',
          `You already have ${open} requests under way on this server (at most ${cap}, limits.openRequestsPerUser): wait for some to finish, or close a tab of Candidate Lookup.`,
          { retryAfterSeconds: RETRY_AFTER_SECONDS },
        );
      }
      held.set(key, open + 1);
      noteSignedIn(call.req);
      whenDone(call, () => {
        const left = (held.get(key) ?? 1) - 1;
        if (left > 0) held.set(key, left);
        else held.delete(key);
      });
    },
  };
}

/**
 * Calls `done` once, when the answer has ended and the request's body is whole (or its connection gone).
 * A route that answers without reading the body (a 405, a 415, a refusal before it) leaves Node reading
 * and dropping the rest on the open connection, for as long as Node's deadline for the whole request: a
 * body trickled in holds its descriptor until then, so it stays counted until then.
 */
function whenDone({ req, res }: Pick<SignedInCall, 'req' | 'res'>, done: () => void): void {
  let answered = false;
  let whole = req.complete;
  let called = false;
  const check = () => {
    if (called || !answered || !whole) return;
    called = true;
    done();
  };
  res.once('close', () => {
    answered = true;
    check();
  });
  if (whole) return;
  const { socket } = req;
  const arrived = () => {
    // A kept-alive connection carries many requests: none leaves a listener on it.
    req.off('end', arrived).off('close', arrived);
    socket.off('close', arrived);
    whole = true;
    check();
  };
  req.once('end', arrived).once('close', arrived);
  socket.once('close', arrived);
}

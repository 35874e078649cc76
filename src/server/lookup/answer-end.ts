import type http from 'node:http';
import type { AnswerCut } from '../audit/audit.ts';
import { type Audit, LEFT_BEFORE_ANSWER, refuse } from '../audit/audit-trail.ts';
import type { ApiFailure } from '../http/api-failure.ts';
import { bytesSent } from '../http/http-reply.ts';

/**
 * How a full answer ended, once its status line is out. Its audit line was written before the first byte
 * and says 200 (audit, then answer: a line is never lost to a crash mid-answer, and nothing leaves while
 * the log cannot take it). The log is hash-chained, so that line is never rewritten: an answer cut short
 * from then on gets a second line of the same request that says so and why, with the status and code the
 * client would have been answered had the fault come before the status line. A lead reading who looked
 * at whom then sees that the answer never arrived whole. An answer that ends whole adds nothing.
 */
export interface AnswerEnd {
  /** Cuts the answer for a fault found after its status line; the line says this reason, not the client's leaving. */
  cut(failure: ApiFailure, reason: Exclude<AnswerCut, 'client_left'>): void;
}

/** Watches `res` from the moment its 200 line is written: its close before the answer's end writes the cut line. */
export function watchAnswerEnd(res: http.ServerResponse, audit: Audit, upstreamStatus: number): AnswerEnd {
  let why: { failure: Pick<ApiFailure, 'status' | 'code' | 'answeredId'>; reason: AnswerCut } | undefined;
  res.once('close', () => {
    if (res.writableFinished) return;
    // Closed with no fault named: the client went away, or stopped reading and was cut off (parts-writer.ts;
    // a plain answer's by the service's idle timeout, full-answer.ts's stalledByBrowser).
    const { failure, reason } = why ?? { failure: LEFT_BEFORE_ANSWER, reason: 'client_left' };
    // Nobody waits for this line: one the log cannot take (stuck, or closed as the server stops) leaves the 200 line alone.
    const answered = failure.answeredId === undefined ? {} : { answeredId: failure.answeredId };
    // How much had gone out: for a record cut as another candidate's, how much of that candidate's was disclosed.
    const sentBytes = bytesSent(res);
    void audit(failure.status, failure.code, { upstreamStatus, reached: true, cut: reason, sentBytes, ...answered });
  });
  return {
    cut(failure, reason) {
      why ??= { failure, reason };
      res.destroy();
    },
  };
}

/**
 * A fault found after the answer's 200 line was written but before its status line left (the body broke
 * off while the line was written; an answer that cannot be framed in parts): the client is answered the
 * failure, nothing of the record sent, and a cut line of the same request says why, so that the 200 line
 * does not stand alone for an answer that never arrived. A client gone by then left before its end.
 */
export function refuseAfterLine(
  res: http.ServerResponse,
  audit: Audit,
  [failure, reason]: [ApiFailure, Exclude<AnswerCut, 'client_left'>],
  upstreamStatus: number,
): Promise<void> {
  return refuse(res, audit, failure, { upstreamStatus, reached: true, cut: res.destroyed ? 'client_left' : reason });
}

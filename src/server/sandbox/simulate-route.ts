import { SANDBOX_SIMULATE_PATH, SIMULATE_ACTIONS, simulateRequestSchema } from '../../kyc/contract/sandbox-simulate.ts';
import { ApiFailure } from '../http/api-failure.ts';
import { methodNotAllowed, sendJson } from '../http/http-reply.ts';
import { readJsonBody } from '../http/request-body.ts';
import { any, type Route, type SignedInCall } from '../http/routes.ts';
import type { SetStatus } from './test-controls.ts';

/**
 * `POST /api/sandbox/simulate` `{"kind","id","action"}`: in sandbox mode (and only there: the route does
 * not exist otherwise) a signed-in user makes the sandbox take a decision, which the sandbox sends to the
 * app's receiver as a signed webhook. The sample candidates are made up, so nothing is audited.
 */
export function sandboxRoutes(simulate: SetStatus | undefined): Route[] {
  return simulate ? [any(SANDBOX_SIMULATE_PATH, (call) => simulateRoute(simulate, call))] : [];
}

async function simulateRoute(simulate: SetStatus, call: SignedInCall): Promise<void> {
  const { req, res } = call;
  if (req.method !== 'POST') throw methodNotAllowed('POST', 'Use POST.');
  if (!/^application\/json\b/i.test(req.headers['content-type'] ?? '')) throw new ApiFailure('unsupported_media_type', 'Send JSON.');
  const { kind, id, action } = await readJsonBody(call, 4096, simulateRequestSchema, 'simulation', {
    shape: 'Say kind, id and action (ready_to_review, approve, reject or block).',
  });
  if (!simulate(kind, id, SIMULATE_ACTIONS[action])) throw new ApiFailure('not_found', 'The sandbox has no such candidate.');
  sendJson(res, 200, '{"status":"success"}');
}

import {
  SANDBOX_SIMULATE_PATH,
  SIMULATE_ACTIONS,
  type SimulateRequest,
  simulateRequestSchema,
} from '../../kyc/contract/sandbox-simulate.ts';
import { ApiFailure } from '../http/api-failure.ts';
import { methodNotAllowed, readBody, sendJson } from '../http/http-reply.ts';
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

async function simulateRoute(simulate: SetStatus, { req, res }: SignedInCall): Promise<void> {
  if (req.method !== 'POST') throw methodNotAllowed('POST', 'Use POST.');
  if (!/^application\/json\b/i.test(req.headers['content-type'] ?? '')) throw new ApiFailure('unsupported_media_type', 'Send JSON.');
  const { kind, id, action } = await readSimulation(await readBody(req, 4096));
  if (!simulate(kind, id, SIMULATE_ACTIONS[action])) throw new ApiFailure('not_found', 'The sandbox has no such candidate.');
  sendJson(res, 200, '{"status":"success"}');
}

function readSimulation(text: string): SimulateRequest {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new ApiFailure('bad_request', 'The simulation is not valid JSON.');
  }
  const parsed = simulateRequestSchema.safeParse(json);
  if (!parsed.success) throw new ApiFailure('bad_request', 'Say kind, id and action (ready_to_review, approve, reject or block).');
  return parsed.data;
}

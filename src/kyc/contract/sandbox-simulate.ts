import { LOOKUP_KINDS } from './lookup.ts';
import { z } from './zod.ts';

/**
 * Sandbox mode only (issue 22): the candidate page's "Simulate" buttons make the embedded sandbox take a
 * reviewer's decision, which it then sends to the app's webhook receiver, so the page updates live.
 * Never answered with a real service.
 */
export const SANDBOX_SIMULATE_PATH = '/api/sandbox/simulate';

/** Each button, the status it moves the candidate to. */
export const SIMULATE_ACTIONS = {
  ready_to_review: 'waiting',
  approve: 'approved',
  reject: 'rejected',
  block: 'blocked',
} as const;
export type SimulateAction = keyof typeof SIMULATE_ACTIONS;

export const simulateRequestSchema = z.object({
  kind: z.enum(LOOKUP_KINDS),
  id: z.string().check(z.minLength(1), z.maxLength(256)),
  action: z.enum(Object.keys(SIMULATE_ACTIONS) as [SimulateAction, ...SimulateAction[]]),
});
export type SimulateRequest = z.infer<typeof simulateRequestSchema>;

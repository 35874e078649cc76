import http from 'node:http';
import { afterEach } from 'vitest';
import { createAccessControl } from '../../src/server/auth/access.ts';

/**
 * What the tests of one user's lookups against everyone else's share (abandoned-lookups, upstream-attacks):
 * users named by a trusted proxy's headers, a record the service answers, requests not waited for, and
 * what a test started, stopped after it.
 */

export const RECORD = { status: 'approved', refId: 'r', recordId: 'x', isArchived: false, blockPassID: 'b' };
/**
 * RECORD as the candidate a request to the service asked for, by the kind and id its path ends with
 * (`…/refId/<id>`, `…/recordId/<id>`): another's record is refused (other-candidate.test.ts).
 */
export function recordAsked(url: string) {
  const [kind, encoded] = url.split('/').slice(-2) as [string, string];
  return { ...RECORD, [kind]: decodeURIComponent(encoded) };
}
/** The headers of a request from `user`, as the trusted proxy names them. */
export const as = (user: string, role = 'compliance') => ({ 'x-user': user, 'x-role': role, 'x-candidate-lookup': '1' });
export const proxyAccess = () =>
  createAccessControl({ mode: 'proxy', userHeader: 'x-user', roleHeader: 'x-role', trusted: ['127.0.0.1/32'] });

/** A list a test adds its clean-ups to (services, apps, timers): each is run after the test, in the list's order. */
export function cleanupsAfterEach(): Array<() => Promise<void> | void> {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });
  return cleanups;
}

/** A request that is not waited for here: its answer's status, whenever it comes. */
export function lookupLater(port: number, path: string, headers: http.OutgoingHttpHeaders): Promise<number> {
  return new Promise((resolve) => {
    const req = http.get({ host: '127.0.0.1', port, path, headers, agent: false }, (res) => {
      res.resume();
      res.on('close', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', () => resolve(0));
  });
}

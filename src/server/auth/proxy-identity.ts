import type http from 'node:http';
import { ROLES, type Role } from '../../kyc/contract/api.ts';
import type { Identity } from '../http/identity.ts';

/**
 * The user and role an identity-aware proxy sends, read strictly (the caller has checked that the
 * request comes from the proxy):
 * - each header exactly once: Node joins repeated headers with ", ", which would turn two users into a
 *   third one (`alice, bob`); a repeated header means something between the browser and us added one;
 * - the user name as UTF-8: proxies send the bytes of `José` as they are, and Node reads header bytes
 *   as Latin-1 (`JosÃ©`); bytes that are not UTF-8 are refused, never guessed at;
 * - no control characters, at most 256 characters, and a known role.
 */
export type ProxyIdentity = { ok: true; identity: Identity } | { ok: false; problem: string };

const MAX_USER_LENGTH = 256;
const utf8 = new TextDecoder('utf-8', { fatal: true });

export function readProxyIdentity(req: http.IncomingMessage, headers: { user: string; role: string }): ProxyIdentity {
  const users = req.headersDistinct[headers.user] ?? [];
  const roles = req.headersDistinct[headers.role] ?? [];
  if (users.length > 1 || roles.length > 1) {
    const which = users.length > 1 ? headers.user : headers.role;
    return { ok: false, problem: `The sign-in gateway's ${which} header came more than once, so it identifies nobody.` };
  }
  const user = decodeUtf8(users[0] ?? '')?.trim();
  if (user === undefined) return { ok: false, problem: `The sign-in gateway's ${headers.user} header is not valid UTF-8.` };
  if (!user || user.length > MAX_USER_LENGTH || /\p{Cc}/u.test(user)) {
    return { ok: false, problem: 'The sign-in gateway did not identify you (user and role).' };
  }
  const role = roles[0]?.trim().toLowerCase();
  if (!role || !(ROLES as readonly string[]).includes(role)) {
    return { ok: false, problem: 'The sign-in gateway did not identify you (user and role).' };
  }
  return { ok: true, identity: { user, role: role as Role } };
}

/** The header's bytes (Node kept each as one Latin-1 character) read as UTF-8; undefined if they are not. */
function decodeUtf8(value: string): string | undefined {
  try {
    return utf8.decode(Buffer.from(value, 'latin1'));
  } catch {
    return undefined;
  }
}

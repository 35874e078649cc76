// @ts-check
/**
 * autocannon requests sent in the name of `count` users in turn (the identity-aware proxy's user header).
 * The server bounds each user's requests to the KYC service (UPSTREAM_MAX_IN_FLIGHT_PER_USER, default 4),
 * so a load from one user measures that bound; from as many users as connections, the server itself.
 * @param {import('autocannon').Request[]} requests
 * @param {string} prefix
 * @param {number} count
 * @returns {import('autocannon').Request[]}
 */
export function asManyUsers(requests, prefix, count) {
  let sent = 0;
  return requests.map((request) => ({
    ...request,
    setupRequest: (/** @type {any} */ raw) => ({ ...raw, headers: { ...raw.headers, 'x-forwarded-user': `${prefix}-${sent++ % count}` } }),
  }));
}

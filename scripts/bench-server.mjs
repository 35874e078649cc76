// @ts-check
// `npm run bench`'s server figures for issue 12: the proxy's memory while it answers 10 lookups of the
// 15 MB candidate in parts at once, and a large plain-JSON lookup (as curl makes it) through the proxy
// against one straight from an upstream that builds each answer afresh (scripts/fresh-upstream.mjs).
import { readFileSync } from 'node:fs';
import http from 'node:http';
import autocannon from 'autocannon';
import { asManyUsers } from './load-users.mjs';

/**
 * Lookups a second (autocannon's average) over `connections` for `seconds`; through the app (headers with a
 * role), one user per connection, so that the per-user bound is not what is measured. Any failed request
 * fails the measurement.
 * @param {{ url: string; headers: Record<string, string>; requests: import('autocannon').Request[]; connections: number; seconds: number; user?: string }} options
 */
export async function lookupRate({ url, headers, requests, connections, seconds, user = 'bench' }) {
  const throughApp = 'x-forwarded-user' in headers || 'x-forwarded-role' in headers;
  const result = await autocannon({
    url,
    connections,
    duration: seconds,
    headers,
    requests: throughApp ? asManyUsers(requests, user, connections) : requests,
  });
  if (result.non2xx + result.errors + result.timeouts > 0) {
    throw new Error(`status lookups failed: ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts`);
  }
  return result.requests.average;
}

/**
 * A GET read to its end (and dropped); its time, bytes, and status.
 * @param {string} url
 * @param {http.OutgoingHttpHeaders} headers
 * @returns {Promise<{ ms: number; bytes: number; status: number }>}
 */
export function timedGet(url, headers) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    http
      .get(url, { headers, agent: false }, (res) => {
        let bytes = 0;
        res.on('data', (chunk) => {
          bytes += chunk.length;
        });
        res.on('end', () => resolve({ ms: performance.now() - started, bytes, status: res.statusCode ?? 0 }));
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

/** @param {number} pid the process's peak resident memory so far (VmHWM), in MB */
export function peakRssMb(pid) {
  return Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
}

/**
 * Ten lookups in parts at once, each of a different large candidate, against a server that has
 * answered nothing else: its peak memory (the sandbox runs in a process of its own).
 * @param {{ appUrl: string; pid: number; ids: string[]; headers: Record<string, string> }} options
 */
export async function partsMemory({ appUrl, pid, ids, headers }) {
  const before = peakRssMb(pid);
  const answers = await Promise.all(
    ids.map((id) => timedGet(`${appUrl}/api/candidates/refId/${id}`, { ...headers, accept: 'multipart/mixed, application/json;q=0.9' })),
  );
  const failed = answers.filter((answer) => answer.status !== 200).length;
  if (failed > 0) throw new Error(`${failed} of the concurrent lookups in parts failed`);
  return { lookups: ids.length, idleMb: before, peakMb: peakRssMb(pid), bytes: answers[0]?.bytes ?? 0 };
}

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeUpstream } from './fake-upstream.ts';
import { startTestApp } from './http.ts';

/**
 * The built app's files are indexed when the server starts (sirv). A file that goes afterwards (a build
 * in place while the server runs, a deploy that replaced the folder) must cost the request that asked
 * for it, never the server: sirv reads it with a stream of its own that has no error listener.
 */

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

function builtClient(): string {
  const staticDir = path.join(mkdtempSync(path.join(os.tmpdir(), 'cl-static-')), 'client');
  mkdirSync(path.join(staticDir, 'assets'), { recursive: true });
  writeFileSync(path.join(staticDir, 'index.html'), '<!doctype html><title>Candidate Lookup</title>');
  writeFileSync(path.join(staticDir, 'assets', 'app-1234.js'), 'console.log("app")');
  return staticDir;
}

describe('a built file removed while the server runs', () => {
  it('cuts the request for it, says so in the log, and the server goes on serving', async () => {
    const staticDir = builtClient();
    const upstream = await startFakeUpstream();
    const app = await startTestApp({ upstream: { baseUrl: upstream.url, clientId: 'c', apiKey: 'k' } }, staticDir);
    cleanups.push(app.close, upstream.close);
    expect((await app.get('/candidates/refId/abc')).status).toBe(200);

    rmSync(path.join(staticDir, 'index.html'));
    // The page at a deep link (the history fallback), and the page itself: neither is answered whole.
    for (const page of ['/candidates/refId/abc', '/']) {
      const cut = await app.get(page).then(
        (res) => res.cut,
        () => true,
      );
      expect(cut).toBe(true);
    }
    // The server still serves: the files that are there, and the API.
    const asset = await app.get('/assets/app-1234.js');
    expect(asset.status).toBe(200);
    expect(asset.body).toBe('console.log("app")');
    expect((await app.get('/api/meta')).status).toBe(200);
    const said = app.logs.filter((line) => line.includes('a file of the built app could not be read'));
    expect(said.length).toBeGreaterThan(0);
    expect(said[0]).toContain('ENOENT');
    expect(said[0]).toContain('index.html');
  });
});

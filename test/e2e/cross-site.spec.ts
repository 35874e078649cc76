import type { BrowserContext, Page } from '@playwright/test';
import { expect, test, needsServers } from './fixtures.ts';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { auditLinesOf, E2E_PORTS, E2E_USERS } from './servers.ts';
import { APP_HEADERS } from './helpers.ts';

needsServers('sandbox', 'gateway', 'users');

/**
 * A page on another origin tries to make lookups in the name of whoever is signed in, in real Chromium,
 * against each access mode: `no-cors` and CORS fetches, a fetch with the app's header (which needs a
 * preflight), an image, a frame, a link and a form. None may reach the audit log; then the app itself
 * looks the same id up, and exactly that one line appears, in the user's name.
 *
 * The attacker serves from another port of 127.0.0.1 (same site as the app: cookies, even SameSite=Strict,
 * go along) and from `localhost` (another site).
 */

function closeable(server: http.Server): Promise<number> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
}

let attacker: http.Server;
let attackerPort = 0;
/** An identity-aware gateway in front of the proxy-mode server: its session cookie is SameSite=Lax. */
let gateway: http.Server;
let gatewayPort = 0;
const GATEWAY_USER = 'carla@example.org';

test.beforeAll(async () => {
  attacker = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end('<!doctype html><title>Win a prize</title><h1>Win a prize</h1>');
  });
  attackerPort = await closeable(attacker);

  gateway = http.createServer((req, res) => {
    if (req.url === '/gateway-sign-in') {
      res.writeHead(302, { location: '/', 'set-cookie': 'gateway_session=carla; Path=/; HttpOnly; SameSite=Lax' });
      return res.end();
    }
    const headers: http.OutgoingHttpHeaders = { ...req.headers, host: `127.0.0.1:${E2E_PORTS.gateway}` };
    delete headers['x-forwarded-user'];
    delete headers['x-forwarded-role'];
    if (/(^|;\s*)gateway_session=carla(;|$)/.test(req.headers.cookie ?? '')) {
      Object.assign(headers, { 'x-forwarded-user': GATEWAY_USER, 'x-forwarded-role': 'compliance' });
    }
    const upstream = http.request({ host: '127.0.0.1', port: E2E_PORTS.gateway, path: req.url, method: req.method, headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  gatewayPort = await closeable(gateway);
});

test.afterAll(async () => {
  for (const server of [attacker, gateway]) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** The lines naming `id` in the audit files of every server the attacks aim at. */
function auditLinesFor(id: string): Array<{ user: string; id: string; status: number }> {
  return auditLinesOf('sandbox', 'gateway', 'users').filter((entry) => entry.id === id) as Array<{
    user: string;
    id: string;
    status: number;
  }>;
}

/** Every way a page can make the browser send a request to `target`, from the attacker's page. */
async function attack(page: Page, attackerOrigin: string, target: string): Promise<Record<string, string>> {
  await page.goto(`${attackerOrigin}/`);
  const frameAnswered = page.waitForResponse((response) => response.url() === `${target}?frame`);
  const results = await page.evaluate(async (target) => {
    const out: Record<string, string> = {};
    const tryFetch = async (name: string, init: RequestInit) => {
      try {
        const response = await fetch(`${target}?${name}`, init);
        out[name] = response.type === 'opaque' ? 'opaque' : String(response.status);
      } catch {
        out[name] = 'blocked';
      }
    };
    await tryFetch('no-cors', { mode: 'no-cors', credentials: 'include' });
    await tryFetch('cors', { credentials: 'include' });
    await tryFetch('preflighted', { credentials: 'include', headers: { 'X-Candidate-Lookup': '1' } });
    await new Promise((resolve) => {
      const img = new Image();
      img.onload = img.onerror = resolve;
      img.src = `${target}?img`;
    });
    const frame = document.createElement('iframe');
    frame.src = `${target}?frame`;
    document.body.append(frame);
    return out;
  }, target);
  await frameAnswered;

  const link = await navigateFrom(page, `${target}?link`, (url) => {
    const a = document.createElement('a');
    a.href = url;
    document.body.append(a);
    a.click();
  });
  await page.goto(`${attackerOrigin}/`);
  const form = await navigateFrom(page, `${target}?via=form`, (url) => {
    const f = document.createElement('form');
    f.method = 'GET';
    f.action = url.split('?')[0]!;
    f.innerHTML = '<input type="hidden" name="via" value="form">';
    document.body.append(f);
    f.submit();
  });
  return { ...results, link, form };
}

async function navigateFrom(page: Page, url: string, navigate: (url: string) => void): Promise<string> {
  const [response] = await Promise.all([page.waitForResponse((r) => r.url() === url), page.evaluate(navigate, url)]);
  await page.waitForURL(url);
  return String(response.status());
}

/** The attacks from both attacker origins, then the app's own lookup of the same id: one line, the user's. */
async function expectNoLookupFromElsewhere(context: BrowserContext, appOrigin: string, user: string) {
  const page = await context.newPage();
  for (const attackerOrigin of [`http://127.0.0.1:${attackerPort}`, `http://localhost:${attackerPort}`]) {
    const id = `cross-site-${randomBytes(6).toString('hex')}`;
    const results = await attack(page, attackerOrigin, `${appOrigin}/api/candidates/refId/${id}`);
    // The answers were unreadable anyway; what matters is that nothing was looked up.
    expect(auditLinesFor(id), `${attackerOrigin}: ${JSON.stringify(results)}`).toEqual([]);
    expect(results.preflighted, attackerOrigin).toBe('blocked');
    expect(results.link, attackerOrigin).toBe('403');
    expect(results.form, attackerOrigin).toBe('403');

    await page.goto(`${appOrigin}/candidates/refId/${id}`);
    await expect(page.getByRole('heading', { name: `No candidate with refId "${id}"` })).toBeVisible();
    await expect.poll(() => auditLinesFor(id).map((entry) => [entry.user, entry.status])).toEqual([[user, 404]]);
  }
  await page.close();
}

test('local mode: a page on another origin makes no lookup', async ({ context }) => {
  await expectNoLookupFromElsewhere(context, `http://127.0.0.1:${E2E_PORTS.sandbox}`, 'local');
});

test("built-in users: a page on another origin makes no lookup in the signed-in user's name", async ({ context }) => {
  const appOrigin = `http://127.0.0.1:${E2E_PORTS.users}`;
  const signIn = await context.request.post(`${appOrigin}/api/session`, {
    headers: APP_HEADERS,
    data: { username: E2E_USERS.compliance.username, password: E2E_USERS.compliance.password },
  });
  expect(signIn.status()).toBe(200);
  await expectNoLookupFromElsewhere(context, appOrigin, E2E_USERS.compliance.username);
});

test("identity-aware proxy with a SameSite=Lax cookie: a page on another origin makes no lookup in the user's name", async ({
  context,
}) => {
  const appOrigin = `http://127.0.0.1:${gatewayPort}`;
  const page = await context.newPage();
  await page.goto(`${appOrigin}/gateway-sign-in`);
  await expect(page.getByTestId('session')).toContainText(GATEWAY_USER);
  await page.close();
  await expectNoLookupFromElsewhere(context, appOrigin, GATEWAY_USER);
});

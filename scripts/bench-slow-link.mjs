// @ts-check
// `npm run bench`'s slow-link scenario (issue 12): the candidate page on an emulated office link
// (Chromium's network emulation, 20 Mbit/s and 40 ms RTT) looking up the 14.8 MB candidate, answered in
// parts. Measured from pressing Enter: the status header and timeline, the first picture, every picture;
// and the bytes that crossed the link, against the plain answer's.

/** @import { Browser } from 'playwright-core' */

export const LINK = { mbitPerSecond: 20, rttMs: 40 };

/**
 * `previews`: every picture's card showing a picture (its preview, from issue 25 on); `images`: every one
 * showing its full picture (no card still marked as a preview).
 * @typedef {{ header: number; first: number; previews: number; images: number; lastByte: number; wireBytes: number }} SlowLookup
 */

/**
 * `page`: the candidate page (answered in parts), or the bench's baseline page (the plain answer, as
 * before parts: the same link's figure for what was there).
 * @param {Browser} browser
 * @param {{ appUrl: string; ids: string[]; headers: Record<string, string>; expectedPictures: number; page?: 'viewer' | 'baseline' }} options
 * @returns {Promise<SlowLookup[]>}
 */
export async function measureSlowLink(browser, { appUrl, ids, headers, expectedPictures, page: which = 'viewer' }) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, extraHTTPHeaders: headers });
  await context.addInitScript(probe, expectedPictures);
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  /** @type {Map<string, number>} */
  const wire = new Map();
  /** @type {Set<string>} */
  const lookups = new Set();
  cdp.on('Network.requestWillBeSent', (event) => {
    if (event.request.url.includes('/api/candidates/')) lookups.add(event.requestId);
  });
  // What crossed the link for the lookup: its body as received (encoded), chunk by chunk.
  cdp.on('Network.dataReceived', (event) => {
    if (lookups.has(event.requestId)) wire.set(event.requestId, (wire.get(event.requestId) ?? 0) + event.encodedDataLength);
  });
  /** @type {SlowLookup[]} */
  const results = [];
  for (const id of ids) {
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
    await page.goto(`${appUrl}${which === 'viewer' ? '/' : '/test/bench/baseline.html'}`);
    // The candidate page's chunk is fetched when the browser is first idle: in before the link slows.
    await page.waitForFunction(() => document.readyState === 'complete');
    await page.waitForTimeout(500);
    const bytesPerSecond = (LINK.mbitPerSecond * 1e6) / 8;
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: LINK.rttMs,
      downloadThroughput: bytesPerSecond,
      uploadThroughput: bytesPerSecond,
    });
    wire.clear();
    const input =
      which === 'viewer'
        ? page.getByRole('search', { name: 'Look up a candidate' }).getByLabel('refId to look up')
        : page.locator('input[name=id]');
    await input.fill(id);
    await input.press('Enter');
    await page.waitForFunction(() => /** @type {any} */ (window).__slow.images > 0, undefined, { timeout: 120_000, polling: 100 });
    const times = await page.evaluate(() => {
      // When the answer's last byte was in: the resource entry of the lookup, added once its body is whole.
      const lookups = performance.getEntriesByType('resource').filter((entry) => entry.name.includes('/api/candidates/'));
      const last = /** @type {PerformanceResourceTiming | undefined} */ (lookups.at(-1));
      return { .../** @type {any} */ (window).__slow, lastByte: last?.responseEnd ?? 0 };
    });
    await waitFor(() => wire.size > 0);
    results.push({
      header: times.header - times.submit,
      first: times.first - times.submit,
      previews: times.previews - times.submit,
      images: times.images - times.submit,
      lastByte: times.lastByte - times.submit,
      wireBytes: [...wire.values()].reduce((sum, n) => sum + n, 0),
    });
  }
  await context.close();
  return results;
}

/** @param {() => boolean} done */
async function waitFor(done) {
  for (let i = 0; i < 100 && !done(); i++) await new Promise((resolve) => setTimeout(resolve, 50));
}

/**
 * Runs in the page: the time of the form's submit, of the status header and timeline, of the first
 * picture shown, and of every picture shown.
 * @param {number} expected
 */
function probe(expected) {
  const slow = { submit: 0, header: 0, first: 0, previews: 0, images: 0 };
  /** @type {any} */ (window).__slow = slow;
  const tick = () => {
    const now = performance.now();
    const viewer = document.querySelector('main h1') && document.querySelector('[aria-label="Status changes, oldest first"] li');
    if (!slow.header && (viewer || document.querySelector('#status')?.textContent)) slow.header = now;
    const shown = [...document.querySelectorAll('figure[data-attribute] img, #pictures img')].filter(
      (img) => img instanceof HTMLImageElement && img.complete && img.naturalWidth > 0,
    ).length;
    if (!slow.first && shown > 0) slow.first = now;
    if (!slow.previews && shown >= expected) slow.previews = now;
    if (!slow.images && shown >= expected && !document.querySelector('[data-preview-note]')) slow.images = now;
    if (!slow.header || !slow.images) requestAnimationFrame(tick);
  };
  document.addEventListener(
    'submit',
    () => {
      Object.assign(slow, { submit: performance.now(), header: 0, first: 0, previews: 0, images: 0 });
      requestAnimationFrame(tick);
    },
    true,
  );
}

/** @param {number[]} values */
function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

/**
 * @param {SlowLookup[]} runs
 * @param {number} plainBytes the plain answer's bytes (pictures as base64): what the upstream sends
 * @param {SlowLookup[]} plainRuns the baseline page on the same link, with the plain answer
 */
export function slowLinkFigures(runs, plainBytes, plainRuns = runs) {
  // The time the base64 answer needs to cross the link at its bandwidth, latency left out.
  const base64TransferMs = ((plainBytes * 8) / (LINK.mbitPerSecond * 1e6)) * 1000;
  const wireBytes = median(runs.map((r) => r.wireBytes));
  return {
    runs: runs.length,
    link: LINK,
    headerMs: median(runs.map((r) => r.header)),
    firstPictureMs: median(runs.map((r) => r.first)),
    previewsMs: median(runs.map((r) => r.previews)),
    picturesMs: median(runs.map((r) => r.images)),
    lastByteMs: median(runs.map((r) => r.lastByte)),
    base64TransferMs,
    picturesOverTransfer: median(runs.map((r) => r.images / base64TransferMs)),
    firstOverAll: median(runs.map((r) => r.first / r.images)),
    wireBytes,
    plainBytes,
    wireOverPlain: wireBytes / plainBytes,
    plainHeaderMs: median(plainRuns.map((r) => r.header)),
    plainLastByteMs: median(plainRuns.map((r) => r.lastByte)),
    plainPicturesOverTransfer: median(plainRuns.map((r) => r.images / base64TransferMs)),
  };
}

/**
 * The table's rows: each figure beside its target.
 * @param {ReturnType<typeof slowLinkFigures>} s
 * @param {{ peakMb: number; idleMb: number; lookups: number }} memory
 * @param {{ directMs: number; proxiedMs: number; proxiedOverDirect: number; bareOverDirect: number }} plain
 * @param {(ok: boolean) => string} verdict
 */
export function slowLinkRows(s, memory, plain, verdict) {
  const mb = (/** @type {number} */ n) => `${(n / 1024 / 1024).toFixed(1)} MB`;
  const link = `${s.link.mbitPerSecond} Mbit/s, ${s.link.rttMs} ms`;
  return [
    [`6 slow link (${link}): Enter to status header + timeline`, `${s.headerMs.toFixed(0)} ms`, '<= 500 ms', verdict(s.headerMs <= 500)],
    [
      '6 slow link: Enter to first picture / last byte in / every picture',
      `${s.firstPictureMs.toFixed(0)} / ${s.lastByteMs.toFixed(0)} / ${s.picturesMs.toFixed(0)} ms`,
      '',
      '',
    ],
    [
      `6 slow link: every picture / base64 transfer (${s.base64TransferMs.toFixed(0)} ms)`,
      s.picturesOverTransfer.toFixed(2),
      '<= 0.8',
      verdict(s.picturesOverTransfer <= 0.8),
    ],
    [
      '6 slow link, plain answer (baseline page): header / last byte in',
      `${s.plainHeaderMs.toFixed(0)} / ${s.plainLastByteMs.toFixed(0)} ms`,
      '',
      '',
    ],
    ['6 slow link, plain answer: every picture / base64 transfer', s.plainPicturesOverTransfer.toFixed(2), '', ''],
    ['6 slow link: first picture / every picture', s.firstOverAll.toFixed(2), '<= 0.5', verdict(s.firstOverAll <= 0.5)],
    [
      `6 bytes on the wire (${mb(s.wireBytes)}) / upstream (${mb(s.plainBytes)})`,
      s.wireOverPlain.toFixed(2),
      '<= 0.78',
      verdict(s.wireOverPlain <= 0.78),
    ],
    [
      `7 server peak RSS, ${memory.lookups} lookups in parts at once (idle ${memory.idleMb.toFixed(0)} MB)`,
      `${memory.peakMb.toFixed(0)} MB`,
      '<= 600 MB',
      verdict(memory.peakMb <= 600),
    ],
    [
      `8 large plain JSON, fresh upstream: proxy / direct (${plain.proxiedMs.toFixed(1)} / ${plain.directMs.toFixed(1)} ms)`,
      plain.proxiedOverDirect.toFixed(2),
      '<= 1.1',
      verdict(plain.proxiedOverDirect <= 1.1),
    ],
    ['8 large plain JSON, fresh upstream: bare Node proxy / direct (reference)', plain.bareOverDirect.toFixed(2), '', ''],
  ];
}

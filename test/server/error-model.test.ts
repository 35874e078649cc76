import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { apiErrorBodySchema } from '../../src/kyc/contract/api.ts';
import { API_ERROR_CODES, API_ERRORS, type ApiErrorCode } from '../../src/kyc/contract/api-errors.ts';
import { ApiFailure } from '../../src/server/http/api-failure.ts';

/**
 * One error model: every code has one status (the contract's table), every failure takes it from there,
 * one function sends it, and docs/api.md says the same. The answers themselves are checked on every
 * server test's request (error-answer.ts, through http.ts).
 */
const root = path.resolve(import.meta.dirname, '../..');
const serverDir = path.join(root, 'src/server');

function sourcesOf(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sourcesOf(path.join(dir, entry.name)) : entry.name.endsWith('.ts') ? [path.join(dir, entry.name)] : [],
  );
}

/** The embedded sandbox plays the KYC service, with its own errors: not this API's. */
const apiSources = sourcesOf(serverDir)
  .filter((file) => !file.includes(`${path.sep}sandbox${path.sep}`))
  .map((file) => ({ file: path.relative(root, file), text: readFileSync(file, 'utf8') }));

describe('the code → status table', () => {
  it('gives every code exactly one status, an HTTP error status, and a title', () => {
    expect(new Set(API_ERROR_CODES).size).toBe(API_ERROR_CODES.length);
    expect([...API_ERROR_CODES].sort()).toEqual(Object.keys(API_ERRORS).sort());
    for (const code of API_ERROR_CODES) {
      const { status, title } = API_ERRORS[code];
      expect(Number.isInteger(status) && status >= 400 && status <= 599, code).toBe(true);
      expect(title.length, code).toBeGreaterThan(0);
    }
  });

  it('splits what bad_request used to cover by status: 413 and 415 have codes of their own', () => {
    expect(API_ERRORS.bad_request.status).toBe(400);
    expect(API_ERRORS.body_too_large.status).toBe(413);
    expect(API_ERRORS.unsupported_media_type.status).toBe(415);
    expect(API_ERRORS.server_busy).toMatchObject({ status: 503, retryAfterSeconds: expect.any(Number) });
  });
});

describe('ApiFailure', () => {
  const code = fc.constantFrom(...API_ERROR_CODES);
  const wait = fc.option(fc.integer({ min: 0, max: 86_400 }), { nil: undefined });

  it("takes the code's status, and says its wait alike in the body and in Retry-After", () => {
    fc.assert(
      fc.property(code, fc.string(), wait, (errorCode: ApiErrorCode, message, retryAfterSeconds) => {
        const failure = new ApiFailure(errorCode, message, { retryAfterSeconds });
        expect(failure.status).toBe(API_ERRORS[errorCode].status);
        const body = apiErrorBodySchema.parse(JSON.parse(JSON.stringify(failure.body())));
        expect(body.error).toMatchObject({ code: errorCode, message });
        const expected = retryAfterSeconds ?? (API_ERRORS[errorCode] as { retryAfterSeconds?: number }).retryAfterSeconds;
        expect(body.error.retryAfterSeconds).toBe(expected);
        expect(failure.headers()['Retry-After']).toBe(expected === undefined ? undefined : String(expected));
      }),
    );
  });

  it('carries Allow for method_not_allowed and the service status for upstream_error', () => {
    expect(new ApiFailure('method_not_allowed', 'Use POST.', { allow: 'POST' }).headers()).toEqual({ Allow: 'POST' });
    expect(new ApiFailure('upstream_error', 'HTTP 500', { upstreamStatus: 500 }).body().error.upstreamStatus).toBe(500);
  });

  it('says which refusal of its code it is (`reason`) in the body, to every role, and none when not given', () => {
    const underWay = new ApiFailure('rate_limited', 'Two under way. Try again in 5 s.', {
      retryAfterSeconds: 5,
      reason: 'exports_under_way',
    });
    expect(apiErrorBodySchema.parse(underWay.body()).error).toMatchObject({ code: 'rate_limited', reason: 'exports_under_way' });
    // Told again in this server's own words (a message that quoted the service's): the reason stays.
    const retold = new ApiFailure('rate_limited', 'Quoted. Try again in 5 s.', { reason: 'exports_under_way', ownMessage: 'Own.' });
    expect(retold.toldTo('support').body().error).toMatchObject({ message: 'Own.', reason: 'exports_under_way' });
    expect(new ApiFailure('rate_limited', 'Try again in 5 s.', { retryAfterSeconds: 5 }).body().error).not.toHaveProperty('reason');
  });
});

describe('every error leaves through one wrapper', () => {
  it('no server file gives an error status by hand: no status field, sendError, or JSON written with a 4xx or 5xx', () => {
    const byHand = [
      /\bstatus:\s*[45]\d\d\b/, // a failure object with its own status
      /\bsendError\b/, // the old (res, status, code, message) shape
      /\bsendJson\(\s*\w+(?:\.\w+)?,\s*[45]\d\d/, // JSON sent with an error status
      /ApiErrorBody\b.*=\s*\{/, // an error body built by hand
    ];
    for (const { file, text } of apiSources) {
      for (const pattern of byHand) expect(pattern.test(text), `${file} matches ${pattern}`).toBe(false);
    }
  });

  it('writes a 4xx or 5xx head by hand only for what is not the API: static files and the metrics port, in plain text', () => {
    const writers = apiSources.filter(({ text }) => /writeHead\(\s*[45]\d\d/.test(text)).map(({ file }) => file);
    expect(writers.sort()).toEqual(['src/server/composition/app-server.ts', 'src/server/ops/metrics.ts']);
  });

  it('sends the error body in one place, http-reply.ts', () => {
    const senders = apiSources.filter(({ text }) => /\.body\(\)/.test(text)).map(({ file }) => file);
    expect(senders).toEqual(['src/server/http/http-reply.ts']);
  });
});

describe('docs/api.md', () => {
  const docs = readFileSync(path.join(root, 'docs/api.md'), 'utf8');
  const errors = docs.slice(docs.indexOf('## Errors'), docs.indexOf('\n## ', docs.indexOf('## Errors') + 1));
  const rows = [...errors.matchAll(/^\|\s*([^|]+?)\s*\|\s*`([a-z_]+)`\s*\|/gm)].map((m) => ({ status: m[1]!, code: m[2]! }));

  it("lists every code once in its Errors table, with the table's status", () => {
    for (const code of API_ERROR_CODES) {
      const documented = rows.filter((row) => row.code === code);
      expect(
        documented.map((row) => row.status),
        code,
      ).toEqual([String(API_ERRORS[code].status)]);
    }
  });

  it('lists no code the contract does not have', () => {
    for (const row of rows) expect(API_ERROR_CODES as readonly string[], row.code).toContain(row.code);
  });
});

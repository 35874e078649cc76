import { describe, expect, it } from 'vitest';
import { gateway, SUPPORT } from './queue-fixture.ts';
import { serviceAndApp } from './service-app.ts';

/** A support user's status level keeps every status date a compliance user's timeline shows, not only the current status's. */
const { upstream, app } = await serviceAndApp((baseUrl) => ({
  upstream: { baseUrl, clientId: 'c', apiKey: 'dates-level-key-5b1d70' },
  access: gateway(),
}));

describe("a support user's status dates, over HTTP", () => {
  function serve(data: Record<string, unknown>): void {
    upstream.behave = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ status: 'success', data }));
    };
  }

  it('keeps the dates of the statuses after a rejection (escalated, resubmitted), so support does not ask for a resubmission already made', async () => {
    serve({
      status: 'rejected',
      refId: 'r-resubmitted',
      waitingDate: '2026-01-01T10:00:00.000Z',
      rejectedDate: '2026-01-03T10:00:00.000Z',
      escalatedDate: '2026-01-05T10:00:00.000Z',
      resubmittedDate: '2026-01-06T10:00:00.000Z',
      lastLoginDate: '2026-01-07T10:00:00.000Z',
      issuedDate: '2020-01-07T00:00:00.000Z',
      dobDate: '1990-01-07T00:00:00.000Z',
      identities: { given_name: { type: 'string', value: 'Ada' } },
    });
    const res = await app.get('/api/candidates/refId/r-resubmitted', SUPPORT);
    expect(res.status).toBe(200);
    expect(Object.keys(JSON.parse(res.body).data).sort()).toEqual(
      ['escalatedDate', 'refId', 'rejectedDate', 'resubmittedDate', 'status', 'waitingDate'].sort(),
    );
  });

  it('attack: a date named as a status holding other text than a timestamp does not reach the status level', async () => {
    serve({ status: 'approved', refId: 'r-named', approvedDate: '2026-01-03T10:00:00.000Z', escalatedDate: 'Ada Lovelace, 1815-12-10' });
    const res = await app.get('/api/candidates/refId/r-named', SUPPORT);
    expect(res.status).toBe(200);
    expect(res.body).not.toContain('Ada');
    expect(JSON.parse(res.body).data).toEqual({ status: 'approved', refId: 'r-named', approvedDate: '2026-01-03T10:00:00.000Z' });
  });
});

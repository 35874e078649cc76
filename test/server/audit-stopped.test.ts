import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { as, gatewayInstance, lookUp, search, status } from './audit-trail-helpers.ts';
import type { Instance } from './instance.ts';
import { hasPostgres, NO_POSTGRES_MESSAGE, queryOf } from './postgres-fixture.ts';
import { candidates, sandboxAndPostgres } from './queue-view-fixture.ts';

/**
 * An instance stopped normally writes a last report (audit-reporting.ts): stopped at T, with what its indexer
 * could not put in the table by then. The other instances' pages say so, and not that it is not reporting;
 * started again under its name it reports as usual; stopped for longer than the retention it leaves the list.
 */
const amelie = candidates[0]!.record;
const ANA = as('ana', 'compliance');

// The sandbox and a PostgreSQL for the whole file; `instances` are closed after each test (queue-view-fixture.ts).
const fixture = sandboxAndPostgres();
const instances = fixture.closing;
const postgres = { database: () => fixture.database(), stop: () => fixture.server().stop(), start: () => fixture.server().start() };

async function instance(databaseUrl: string, name: string): Promise<Instance> {
  const started = await gatewayInstance(fixture.sandbox(), { DATABASE_URL: databaseUrl, AUDIT_INSTANCE: name });
  instances.push(started);
  return started;
}
const stop = (app: Instance) => instances.splice(instances.indexOf(app), 1)[0]!.close();
const reported = async (url: string, name: string) =>
  (await queryOf(url, 'SELECT 1 FROM candidate_lookup_audit_instances WHERE instance = $1 AND reported_at IS NOT NULL', [name])).length;
/** What time passing leaves in the table, without waiting it out: the instance's last report, that old. */
const age = (url: string, name: string, interval: string) =>
  queryOf(url, `UPDATE candidate_lookup_audit_instances SET reported_at = now() - $2::interval WHERE instance = $1`, [name, interval]);

describe.skipIf(!hasPostgres)(`an instance stopped normally${hasPostgres ? '' : ` (${NO_POSTGRES_MESSAGE})`}`, () => {
  it('is shown stopped with all its lines in the table, not as not reporting, and reports as usual when started again under its name', async () => {
    const url = await postgres.database();
    const [one, two] = [await instance(url, 'app1'), await instance(url, 'app2')];
    await expect.poll(async () => (await reported(url, 'app1')) + (await reported(url, 'app2')), { timeout: 10_000 }).toBe(2);
    expect((await lookUp(one, amelie.refId!, ANA)).status).toBe(200);
    // The lookup's line in the table before the stop: what is tested is the last report, not how fast a loaded
    // machine catches up within the close's 3 s.
    await expect.poll(async () => (await search(two, { refId: amelie.refId! })).rows.length, { timeout: 20_000 }).toBe(1);
    await stop(one);
    // Long after its last report: still stopped, not "not reporting".
    await age(url, 'app1', '10 minutes');
    const state = (await status(two)).instances.find((at) => at.instance === 'app1');
    expect(state).toMatchObject({ stopped: true });
    expect(state?.notReporting).toBeUndefined();
    expect(state?.behind).toBeUndefined();
    const found = await search(two, { refId: amelie.refId! });
    expect(found.rows).toHaveLength(1);
    expect(found.source).toEqual({ kind: 'database' });
    // Started again under the same name: it reports as usual.
    const again = await instance(url, 'app1');
    await expect
      .poll(async () => (await status(two)).instances.find((at) => at.instance === 'app1')?.stopped, { timeout: 10_000 })
      .toBeUndefined();
    expect((await status(again)).instances.find((at) => at.instance === 'app1')).toMatchObject({ self: true });
  }, 60_000);

  it('that could not put its lines in the table before it stopped says how many it left out', async () => {
    const url = await postgres.database();
    const [one, two] = [await instance(url, 'app1'), await instance(url, 'app2')];
    await expect.poll(async () => (await reported(url, 'app1')) + (await reported(url, 'app2')), { timeout: 10_000 }).toBe(2);
    // Another session holds the table: app1's indexer cannot insert its last lines before it stops.
    const holder = new pg.Client({ connectionString: url });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('LOCK TABLE candidate_lookup_audit IN ACCESS EXCLUSIVE MODE');
      expect((await lookUp(one, amelie.refId!, ANA)).status).toBe(200);
      await stop(one);
    } finally {
      await holder.query('COMMIT');
      await holder.end();
    }
    const state = (await status(two)).instances.find((at) => at.instance === 'app1');
    expect(state).toMatchObject({ stopped: true, behind: { instance: 'app1' } });
    expect(state!.behind!.lines).toBeGreaterThanOrEqual(1);
    expect((await search(two, {})).source.behind?.map((lag) => lag.instance)).toContain('app1');
  }, 60_000);

  it('stopped for longer than the retention, it is left out of the list; one that stopped reporting is not', async () => {
    const url = await postgres.database();
    const [one, two, three] = [await instance(url, 'app1'), await instance(url, 'app2'), await instance(url, 'app3')];
    await expect.poll(async () => (await reported(url, 'app1')) + (await reported(url, 'app3')), { timeout: 10_000 }).toBe(2);
    await stop(one);
    await age(url, 'app1', '366 days');
    // app3 silent as long (it did not stop normally: its last report is an ordinary one).
    await stop(three);
    await queryOf(url, "UPDATE candidate_lookup_audit_instances SET report = report - 'stopped' WHERE instance = 'app3'");
    await age(url, 'app3', '366 days');
    const names = (await status(two)).instances.map((at) => at.instance);
    expect(names).toEqual(['app2', 'app3']);
  }, 60_000);
});

import fc from 'fast-check';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CAPITALS, foldCase, SMALLS } from '../../src/server/state/fold-case.ts';
import { migrate } from '../../src/server/state/postgres.ts';
import { hasPostgres, NO_POSTGRES_MESSAGE, type RunningPostgres, startPostgres } from './postgres-fixture.ts';

/**
 * A search by user over the table folds capitals in PostgreSQL (`candidate_lookup_fold`, the index's
 * function), over the files in JavaScript (foldCase): the two must give the same name for every text, or
 * the audit page would find a user's lines in one source and not the other (ÉLODIE found élodie in neither).
 */

let postgres: RunningPostgres | undefined;
let pool: pg.Pool | undefined;

beforeAll(async () => {
  if (!hasPostgres) return;
  postgres = await startPostgres();
  pool = new pg.Pool({ connectionString: await postgres.database(), max: 1 });
  await migrate(pool);
}, 60_000);
afterAll(async () => {
  await pool?.end();
  await postgres?.destroy();
});

const foldedInTable = async (text: string) =>
  (await pool!.query<{ folded: string }>('SELECT candidate_lookup_fold($1) AS folded', [text])).rows[0]!.folded;

describe.skipIf(!hasPostgres)(`the user filter's capitals in PostgreSQL${hasPostgres ? '' : ` (${NO_POSTGRES_MESSAGE})`}`, () => {
  it('folds every capital as the files search folds it, ÉLODIE as élodie, and leaves ß, ς, ı, İ and the Kelvin sign as they are', async () => {
    expect(await foldedInTable(CAPITALS)).toBe(SMALLS);
    expect(foldCase(CAPITALS)).toBe(SMALLS);
    for (const [name, folded] of [
      ['ÉLODIE', 'élodie'],
      ['Ana.Smith@Example.ORG', 'ana.smith@example.org'],
      ['\u212AELVIN', '\u212Aelvin'],
      ['İLKER', 'İlker'],
      ['ılker', 'ılker'],
      ['STRAßE', 'straße'],
      ['ΟΔΥΣΣΕΥΣ', 'οδυσσευσ'],
    ]) {
      expect(foldCase(name!)).toBe(folded);
      expect(await foldedInTable(name!)).toBe(folded);
    }
  });

  it('gives the same name as foldCase for any text PostgreSQL can hold', async () => {
    await fc.assert(
      fc.asyncProperty(
        // No half of a surrogate pair (\p{Cs} matches only a lone one), no NUL: text PostgreSQL refuses.
        fc.string({ unit: 'binary', maxLength: 24 }).filter((text) => !/\p{Cs}/u.test(text) && !text.includes('\0')),
        async (text) => {
          expect(await foldedInTable(text)).toBe(foldCase(text));
        },
      ),
      { numRuns: 300 },
    );
  });
});

import { isServerWork } from '../../kyc/contract/audit-search.ts';
import { escapeToAscii } from '../audit/audit-line.ts';
import type { Database } from '../state/postgres.ts';
import type { FileBounds } from './audit-file-search.ts';
import { auditFilesOf, linesBackward, openToRead } from './audit-files.ts';
import { foldCase, SERVER_USER_LIST } from './audit-match.ts';
import { rowOfLine } from './audit-row.ts';

/**
 * A search by user that found nothing: the names of people in the trail that contain what was typed,
 * capitals ignored as the search ignores them (`carla` finds `Carla@example.org`), so that a lead
 * who typed part of a name is offered the whole one. Only a line's own user, never what a line quotes (an
 * audit search's filter), nor this server's own names (SERVER_USERS): users' names, no candidate data.
 */

/** Most names offered. */
export const MAX_SIMILAR_USERS = 5;

/** Whether `name` is one to offer for `typed`: contains it, and is not it (that one was searched). */
function offers(name: string | null, typed: string): name is string {
  if (name === null || isServerWork(name)) return false;
  const folded = foldCase(name);
  return folded !== typed && folded.includes(typed);
}

/**
 * A sign-in's name is at most 256 characters (proxy-identity.ts, users-access.ts), and the whole name typed
 * is not offered to itself: a longer text has nothing to offer, and is no needle to search the files with.
 */
const MAX_TYPED = 255;

/**
 * This instance's files, newest line first, within what is left of the search's bounds (its lines, and
 * its time since `started`, performance.now()): the first names found, in alphabetical order. A line is
 * parsed only when it holds the typed text somewhere (as the log writes it), found by a native search in
 * the line with its capitals folded: the clock is read at every line, so no line of any length holds
 * the event loop for long.
 */
export async function similarUsersInFiles(current: string, typed: string, bounds: FileBounds, started: number): Promise<string[]> {
  if (typed.length > MAX_TYPED) return [];
  const wanted = foldCase(typed);
  // The line's bytes fold A to Z only: the needle is what the typed text holds before a letter they cannot see (audit-match.ts's userNeedle).
  const seen = [...wanted].findIndex((char) => char > '\x7f');
  const needle = Buffer.from(
    escapeToAscii(JSON.stringify(seen === -1 ? wanted : [...wanted].slice(0, seen).join(''))).slice(1, -1),
    'latin1',
  );
  const found = new Set<string>();
  let lines = 0;
  for (const file of await auditFilesOf(current)) {
    const handle = await openToRead(file.path);
    if (!handle) continue;
    try {
      for await (const line of linesBackward(handle, file.size)) {
        lines += 1;
        if (lines > bounds.maxLines || performance.now() - started > bounds.maxMs) return sorted(found);
        if (!holdsFolded(line.bytes, needle)) continue;
        const { user } = rowOfLine(line.bytes, '');
        if (offers(user, wanted)) found.add(user);
        if (found.size === MAX_SIMILAR_USERS) return sorted(found);
      }
    } finally {
      await handle.close();
    }
  }
  return sorted(found);
}

/**
 * The table's distinct users walked along the index on "user" (schema version 7), one step each (a loose
 * index scan, not a read of every row), the first names that contain the typed text in alphabetical order.
 */
export const SIMILAR_USERS_SQL = `WITH RECURSIVE users AS (
    (SELECT "user" FROM candidate_lookup_audit WHERE "user" IS NOT NULL ORDER BY "user" LIMIT 1)
    UNION ALL
    SELECT (SELECT a."user" FROM candidate_lookup_audit a WHERE a."user" > users."user" ORDER BY a."user" LIMIT 1)
    FROM users WHERE users."user" IS NOT NULL
  )
  SELECT "user" FROM users
  WHERE "user" IS NOT NULL AND strpos(candidate_lookup_fold("user"), $1) > 0
    AND candidate_lookup_fold("user") <> $1 AND "user" <> ALL($2::text[])
  LIMIT $3`;

/** The table's names like `typed` (SIMILAR_USERS_SQL). */
export async function similarUsersInTable(db: Database, typed: string): Promise<string[]> {
  const { rows } = await db.query<{ user: string }>(SIMILAR_USERS_SQL, [foldCase(typed), SERVER_USER_LIST, MAX_SIMILAR_USERS]);
  return sorted(new Set(rows.map((row) => row.user)));
}

function sorted(names: Set<string>): string[] {
  return [...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/** Whether `line` holds `needle` (folded) anywhere, its capitals A to Z read as small letters: one pass to fold, then Buffer's own search. */
function holdsFolded(line: Buffer, needle: Buffer): boolean {
  const folded = Buffer.allocUnsafe(line.length);
  for (let i = 0; i < line.length; i++) {
    const byte = line[i]!;
    folded[i] = byte >= 0x41 && byte <= 0x5a ? byte + 0x20 : byte;
  }
  return folded.includes(needle);
}

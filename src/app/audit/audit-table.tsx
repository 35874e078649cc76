import { useRef } from 'react';
import { ColumnHeads } from '../ui/column-heads.tsx';
import { AUDIT_LEVELS, type AuditRow, isServerWork } from '../../kyc/contract/audit-search.ts';
import {
  actionText,
  CUT_SHORT,
  foundNoCandidate,
  LEVEL_LABELS,
  LEVEL_MEANINGS,
  levelText,
  NOTHING_SHOWN,
  nothingShown,
  outcomeText,
} from '../../kyc/view/audit-labels.ts';
import { candidateLink, useDefaultEnvironment } from '../meta/candidate-link.ts';
import { Link, useLocation } from '../navigation.tsx';
import { rememberRowOpening, useRowReturn } from '../recent/row-return.ts';
import { AuditLevel } from '../ui/audit-level.tsx';
import { Card } from '../ui/card.tsx';
import { LongText } from '../ui/long-text.tsx';
import { TimeStamp } from '../ui/time-stamp.tsx';

/**
 * Where a row's candidate is: their page in the line's environment (a link opens it, and that lookup is
 * audited too). The server's default environment by the unprefixed address, as the app's other links name it.
 */
export function rowLink(row: Pick<AuditRow, 'kind' | 'id' | 'env'>, defaultEnvironment: string | undefined): string | undefined {
  if (!row.kind || !row.id || !row.env || row.id.endsWith('…')) return undefined;
  return candidateLink(row.kind, row.id, row.env, defaultEnvironment);
}

/** A line of the trail is found again by its hash: several lines may name the same candidate. */
const lineKey = (row: AuditRow) => [row.hash];

/**
 * A page of the trail, newest first: when, who, what, which candidate (a link), at what level, where, with
 * what outcome, from which address, in which instance's file. On a phone, stacked rows (styles.css), each
 * cell under its column's name and an empty one left out. A row after a break in its instance's hash chain
 * (the server says which: `unvouched`) is marked, in words. Ids and names only: the log holds no
 * candidate data. Back from a row's candidate focuses that row's link, not the page's heading.
 */
export function AuditTable({ rows, caption }: { rows: AuditRow[]; caption: string }) {
  const defaultEnvironment = useDefaultEnvironment();
  const { pathname, search } = useLocation();
  const table = useRef<HTMLTableElement>(null);
  useRowReturn(pathname + search, rows, table, lineKey);
  return (
    <>
      <Card padding="none" className="overflow-x-auto">
        <table ref={table} data-stack className="w-full text-left text-sm lg:min-w-[64rem]">
          <caption className="sr-only">{caption}</caption>
          <ColumnHeads
            cell="px-3 py-2 whitespace-nowrap"
            columns={['Time', 'User', 'Action', 'Candidate', 'Level', 'Environment', 'Outcome', 'From', 'Instance']}
          />
          <tbody className="divide-y divide-slate-100 align-top">
            {rows.map((row, index) => (
              <AuditTableRow
                key={row.hash}
                row={row}
                href={rowLink(row, defaultEnvironment)}
                visit={() => rememberRowOpening(pathname + search, lineKey(row), index)}
              />
            ))}
          </tbody>
        </table>
      </Card>
      <LevelLegend rows={rows} />
    </>
  );
}

/** What the levels shown on the page mean, in a line each: a compliance lead need not know the service's words. */
function LevelLegend({ rows }: { rows: AuditRow[] }) {
  const shown = AUDIT_LEVELS.filter((level) => rows.some((row) => row.level === level));
  if (shown.length === 0) return null;
  // Explained here too, not only in a title a phone cannot hover.
  const refused = rows.some(nothingShown);
  const cut = rows.some((row) => row.action === 'cut' && row.level);
  return (
    <dl className="space-y-0.5 text-xs text-slate-600" data-testid="level-legend">
      {shown.map((level) => (
        <div key={level}>
          {/* The colon inside the term: a list's group may hold only its terms and descriptions (axe's definition-list). */}
          <dt className="inline font-semibold text-slate-700">{LEVEL_LABELS[level]}:</dt>
          <dd className="ml-1 inline">{LEVEL_MEANINGS[level]}</dd>
        </div>
      ))}
      {refused && (
        <div>
          <dt className="inline font-semibold text-slate-700">… asked, nothing shown:</dt>
          <dd className="ml-1 inline">{NOTHING_SHOWN}</dd>
        </div>
      )}
      {cut && (
        <div>
          <dt className="inline font-semibold text-slate-700">…, cut short:</dt>
          <dd className="ml-1 inline">{CUT_SHORT}</dd>
        </div>
      )}
    </dl>
  );
}

/** An empty field: a dash in the table; left out of a phone's stacked row (`data-empty`, styles.css). */
const empty = (value: unknown) => (value ? undefined : true);
const DASH = <span className="text-slate-500">—</span>;

/** `visit`: the row's candidate is being opened, and Back returns to the row. */
type RowLink = { row: AuditRow; href: string | undefined; visit: () => void };

function AuditTableRow({ row, href, visit }: RowLink) {
  const unvouched = row.unvouched === true;
  const level = levelText(row);
  const outcome = outcomeText(row);
  return (
    <tr data-hash={row.hash} data-unvouched={unvouched || undefined} className={unvouched ? 'bg-red-50' : undefined}>
      <td data-label="Time" className="px-3 py-2 whitespace-nowrap">
        <TimeStamp date={new Date(row.time)} seconds />
        {/* In words, not only the colour: the chain's break (the alert above) may have changed or added this line. */}
        {unvouched && (
          <span className="mt-1 block w-fit rounded border border-red-300 bg-white px-1.5 text-xs font-medium whitespace-normal text-red-900">
            Not vouched for by the chain
          </span>
        )}
      </td>
      <td data-label="User" data-empty={empty(row.user)} className="px-3 py-2">
        {row.user ? <LongText text={row.user} limit={40} /> : DASH}
        {/* This server's own lines carry the level they read at as a role ("support"): not a person's role. */}
        {row.role && !isServerWork(row.user) && <span className="block text-xs text-slate-600">{row.role}</span>}
      </td>
      <td data-label="Action" className="px-3 py-2">
        <span className="font-medium text-slate-900">{actionText(row)}</span>
        {/* The detail can quote what someone typed (an audit search's filter): its bidirectional controls shown, never obeyed. */}
        {row.detail && (
          <span className="block max-w-72 text-xs break-words text-slate-600">
            <LongText text={row.detail} />
          </span>
        )}
      </td>
      {row.shown?.length ? <ShownCandidates row={row} shown={row.shown} /> : <CandidateCell row={row} href={href} visit={visit} />}
      <td data-label="Level" data-empty={empty(level)} className="px-3 py-2">
        {level ? <AuditLevel row={row} /> : DASH}
      </td>
      <td data-label="Environment" data-empty={empty(row.env)} className="px-3 py-2">
        {row.env ?? DASH}
      </td>
      <td data-label="Outcome" data-empty={empty(outcome)} className="px-3 py-2 whitespace-nowrap">
        {outcome || DASH}
      </td>
      <td data-label="From" data-empty={empty(row.client)} className="px-3 py-2 font-mono text-xs">
        {row.client ?? ''}
      </td>
      <td data-label="Instance" className="px-3 py-2 text-xs text-slate-700">
        {row.instance}
      </td>
    </tr>
  );
}

const LINK = 'rounded text-blue-800 underline underline-offset-2 focus-ring';
// Wide enough for a usual id on one line ("support-ticket-4410" broke in two while other columns had room).
const CANDIDATE_CELL = 'min-w-44 px-3 py-2 font-mono text-xs';
/** An id breaks where it may (after a hyphen), and inside a run only where it has no such place (a hash, a JSON string). */
const ID_WRAP = 'wrap-anywhere';

/**
 * One of a line's ids, linked to its candidate's page where it has one (not an id cut short in the line).
 * `visit`: the line's own candidate, whose link Back from their page focuses.
 */
function IdText({ id, href, visit }: { id: string; href: string | undefined; visit?: () => void }) {
  return (
    <LongText
      text={id}
      limit={48}
      wrap={(content) =>
        href ? (
          <Link to={href} className={`${LINK} ${ID_WRAP}`} data-open={visit ? true : undefined} onNavigate={visit}>
            {content}
          </Link>
        ) : (
          <span className={ID_WRAP}>{content}</span>
        )
      }
    />
  );
}

type Shown = NonNullable<AuditRow['shown']>;

/**
 * Whom a queue view showed (it carried personal data, so its line names them): "4 candidates", opened to
 * their ids, each linked to the candidate's page as a row's own candidate is. Closed at first: a page of
 * the queue names up to 100.
 */
function ShownCandidates({ row, shown }: { row: AuditRow; shown: Shown }) {
  const defaultEnvironment = useDefaultEnvironment();
  const count = `${shown.length} ${shown.length === 1 ? 'candidate' : 'candidates'}`;
  return (
    <td data-label="Candidate" className={CANDIDATE_CELL}>
      <details data-testid="shown-candidates">
        <summary className="w-fit cursor-pointer rounded font-sans text-slate-800 focus-ring">{count}</summary>
        <ul className="mt-1 space-y-1.5" aria-label={`The ${count} this view showed`}>
          {shown.map((ids, index) => (
            // A page may list a candidate twice (a row that moved while it was read): the place is the key.
            // biome-ignore lint/suspicious/noArrayIndexKey: the list never changes order once drawn.
            <li key={index}>
              {(['refId', 'recordId'] as const).map(
                (kind) =>
                  ids[kind] && (
                    <span key={kind} className="block">
                      <span className="font-sans text-slate-600">{kind}</span>{' '}
                      <IdText id={ids[kind]} href={rowLink({ kind, id: ids[kind], env: row.env }, defaultEnvironment)} />
                    </span>
                  ),
              )}
            </li>
          ))}
        </ul>
      </details>
    </td>
  );
}

/**
 * Which candidate, linked to their page. A lookup that found no one (404) links no candidate: a lead
 * reading "who looked at whom" is told plainly that nothing was found, and the link offered says what
 * following it does, a new lookup of the id (audited like any other), not a visit to someone's page.
 */
function CandidateCell({ row, href, visit }: RowLink) {
  const cell = CANDIDATE_CELL;
  if (!row.kind || !row.id) {
    return (
      <td data-label="Candidate" data-empty className={cell}>
        <span className="font-sans text-slate-500">—</span>
      </td>
    );
  }
  const missing = foundNoCandidate(row);
  return (
    <td data-label="Candidate" className={cell}>
      <span className="block font-sans text-slate-600">{row.kind}</span>
      <IdText id={row.id} href={missing ? undefined : href} visit={visit} />
      {missing && (
        <span className="mt-1 block font-sans">
          <span className="block text-slate-800">No candidate found.</span>
          {href && (
            // A link alone on its line: a finger's height on a phone (data-touch, styles.css).
            <Link to={href} className={LINK} data-touch data-open onNavigate={visit}>
              Look it up again (a new lookup)
            </Link>
          )}
        </span>
      )}
    </td>
  );
}

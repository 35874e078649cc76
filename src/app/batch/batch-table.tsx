import { useMemo, useRef } from 'react';
import { ColumnHeads } from '../ui/column-heads.tsx';
import { DATE_DOUBT_WORDS, dateDoubt } from '../../kyc/contract/date-doubt.ts';
import type { LookupKind } from '../../kyc/contract/lookup.ts';
import { type BatchLine, withTriage } from '../../kyc/view/batch-export.ts';
import { linesOrder } from '../../kyc/view/batch-triage.ts';
import { readsLikeNoId } from '../../kyc/view/reads-like-no-id.ts';
import { useEnvironment } from '../environment/use-environment.ts';
import { Link, useLocation } from '../navigation.tsx';
import { rememberRowOpening, useRowReturn } from '../recent/row-return.ts';
import { useVisited, wasVisited } from '../recent/visited.ts';
import { type BatchRowHandOver, candidatePath } from '../routes.ts';
import { cardClass } from '../ui/card.tsx';
import { cn } from '../ui/cn.ts';
import { OpenedMark } from '../ui/opened-mark.tsx';
import { StatusBadge } from '../ui/status-badge.tsx';
import { useStackToFit } from '../ui/stack-to-fit.ts';
import { TimeStamp } from '../ui/time-stamp.tsx';
import { batchLineKey } from './batch-place.ts';
import { AttentionFirst, TriageCell } from './batch-triage.tsx';

const OTHER: Record<LookupKind, LookupKind> = { refId: 'recordId', recordId: 'refId' };

interface TableProps {
  lines: BatchLine[];
  kind: LookupKind;
  pending: string;
  /** The path of a page in the batch's environment: a found row links to its candidate there. */
  to: (path: string) => string;
  /** This tab opened the row's candidate already. */
  opened: boolean;
  /** The row's candidate is being opened: Back returns to it. */
  visit: () => void;
  /** The rows carry the queue index's triage (a compliance user's or lead's batch): a column of it. */
  triage: boolean;
}

/**
 * One row per pasted entry, in the order they were pasted and numbered as the pasted lines were; a row
 * fills in when its lookup finishes, and a repeat shows the one lookup of its id, marked as a repeat.
 * Back from a row's candidate focuses that row's link, and a candidate this tab opened is marked
 * "Opened", as the queue's rows are.
 */
export function BatchTable({
  lines,
  kind,
  pending,
  to,
  attentionFirst,
  onAttentionFirst,
}: Omit<TableProps, 'opened' | 'visit' | 'triage'> & { attentionFirst: boolean; onAttentionFirst: (on: boolean) => void }) {
  const { pathname, search } = useLocation();
  const table = useRef<HTMLTableElement>(null);
  const triage = withTriage(lines);
  // Each row keeps its place among the lines (its link hands it over), whatever the order shown.
  const order = useMemo(() => linesOrder(lines, triage && attentionFirst), [lines, triage, attentionFirst]);
  const shown = useMemo(() => order.map((index) => lines[index]!), [order, lines]);
  useRowReturn(pathname + search, shown, table, batchLineKey);
  const visited = useVisited();
  const name = useEnvironment().info?.name;
  // Stacked where it does not fit its card (the Certificates column at a tablet's 768 px), as the queue's is.
  const card = useRef<HTMLDivElement>(null);
  const stacked = useStackToFit(card, shown);
  return (
    <>
      {triage && <AttentionFirst lines={lines} on={attentionFirst} onChange={onAttentionFirst} />}
      <div ref={card} className={cn(cardClass({ padding: 'none' }), 'overflow-x-auto')}>
        <table ref={table} data-stack data-stacked={stacked || undefined} className="w-full text-left text-sm">
          <caption className="sr-only">Batch results, in the order of the ids</caption>
          <ColumnHeads
            cell="px-3 py-2"
            columns={[
              { label: '#', title: 'The pasted line' },
              kind,
              'Status',
              'Since',
              'Submissions',
              OTHER[kind],
              triage && { label: 'Certificates', title: 'As the queue index knows them, from a compliance user’s lookup' },
            ]}
          />
          <tbody className="divide-y divide-slate-100">
            {order.map((index, place) => {
              const line = lines[index]!;
              return (
                <BatchTableRow
                  key={line.line}
                  line={line}
                  index={index}
                  kind={kind}
                  pending={pending}
                  to={to}
                  opened={name !== undefined && line.row?.ok === true && wasVisited(visited, name, [line.row.refId, line.row.recordId])}
                  visit={() => rememberRowOpening(pathname + search, batchLineKey(line), place)}
                  triage={triage}
                />
              );
            })}
          </tbody>
        </table>
      </div>
    </>
  );
}

/**
 * "found by recordId; its refId hu-2026-0117": the id pasted is of the other kind (its column says it
 * again), so the candidate's id of the batch's kind is said here; or, the answer without it, that it is
 * "not in this response", as the candidate page says a field the service left out: not that they have none.
 */
function FoundBy({ foundBy, kind, own }: { foundBy: LookupKind; kind: LookupKind; own: string | null | undefined }) {
  return (
    <span className="block font-sans text-slate-600">
      found by {foundBy};{' '}
      {own ? (
        <>
          its {kind} <span className="font-mono wrap-anywhere text-slate-900">{own}</span>
        </>
      ) : (
        `its ${kind} not in this response`
      )}
    </span>
  );
}

/** "repeat of line 2": a repeated id is looked up once, and its other lines say so. */
/** The status date of a found row: its time, or, when it cannot be right (date-doubt.ts), as sent with its doubt, never an age. */
export function BatchSince({ statusDate, now = Date.now() }: { statusDate: string | undefined; now?: number }) {
  const since = statusDate ? new Date(statusDate) : undefined;
  if (!since || Number.isNaN(since.getTime())) return <>—</>;
  const doubt = dateDoubt(since.getTime(), now);
  if (!doubt) return <TimeStamp date={since} />;
  return (
    <span className="whitespace-normal" data-doubtful-date={doubt}>
      <span className="font-mono text-xs">{statusDate}</span> <span className="text-amber-900">({DATE_DOUBT_WORDS[doubt]})</span>
    </span>
  );
}

/**
 * An id of an ordinary length (a recordId's 24 characters, a UUID's 36) stays on one line: a reviewer
 * compares ids by their ends, and "toolarg / e" reads as two ids. Its column is as wide as its longest such
 * id, whatever a failed row's sentence across the row asks for. A longer id breaks only where it must
 * (`wrap-anywhere`, which also keeps "repeat of line 2" whole words), in a column at least a UUID wide
 * (`idCellClass`), not the few letters' width that `break-all` let the sentence narrow it to. Stacked (a
 * phone's layout), an id breaks only when it is longer than its line.
 */
const ORDINARY_ID = 36;
const idCellClass = (id: string | null | undefined) =>
  cn('px-3 py-2 font-mono text-xs wrap-anywhere', id && id.length > ORDINARY_ID && 'min-w-[calc(36ch+1.5rem)]');
const wholeIdClass = (id: string) => (id.length > ORDINARY_ID ? undefined : 'whitespace-nowrap stacked:whitespace-normal');

function RepeatMark({ line }: { line: BatchLine }) {
  if (line.repeatOf === undefined) return null;
  return <span className="block font-sans text-slate-600">repeat of line {line.repeatOf}</span>;
}

function BatchTableRow({
  line,
  index,
  kind,
  pending,
  to,
  opened,
  visit,
  triage,
}: Omit<TableProps, 'lines'> & { line: BatchLine; index: number }) {
  const { row } = line;
  const span = triage ? 5 : 4;
  const repeat = line.repeatOf === undefined ? {} : { 'data-repeat-of': line.repeatOf };
  const idCell = (
    <td className={cn(idCellClass(line.id), 'text-slate-900')}>
      <span className={wholeIdClass(line.id)}>{line.id}</span>
      <RepeatMark line={line} />
    </td>
  );
  const number = (
    // Shown on a phone too, under its name: "repeat of line 2" refers to it.
    <td className="px-3 py-2 text-slate-500 tabular-nums" data-label="Line">
      {line.line}
    </td>
  );
  if (!row) {
    return (
      <tr data-row-state="pending" {...repeat}>
        {number}
        {idCell}
        <td colSpan={span} className="px-3 py-2 text-slate-500 italic">
          {pending}
        </td>
      </tr>
    );
  }
  if (!row.ok) {
    return (
      <tr data-row-state="failed" data-code={row.code} {...repeat}>
        {number}
        {idCell}
        <td colSpan={span} className="px-3 py-2 wrap-anywhere text-red-800">
          <span className="font-medium">
            {row.code === 'not_found' ? 'Not found' : row.code === 'invalid_id' ? 'Invalid id' : 'Failed'}
          </span>
          <span className="text-red-700">: {row.message}</span>
          {/* A name pasted among ids is looked up as one (a refId may hold spaces): not found, it is said why. */}
          {row.code === 'not_found' && readsLikeNoId(line.id) && (
            <span className="block text-slate-700" data-testid="reads-like-a-name">
              {readsLikeNoId(line.id)}
            </span>
          )}
        </td>
      </tr>
    );
  }
  const other = kind === 'refId' ? row.recordId : row.refId;
  // Found by the kind it was found by: the link looks it up the way that worked.
  const foundBy = row.foundBy ?? kind;
  return (
    <tr data-row-state="found" {...repeat}>
      {number}
      <td className={idCellClass(line.id)}>
        <Link
          to={to(candidatePath(foundBy, line.id))}
          // Its place among the batch's lines, never an id: the candidate page steps through the found rows from it (batch-place.ts).
          state={{ batchRow: { index } } satisfies BatchRowHandOver}
          className={cn('rounded text-blue-800 underline underline-offset-2 hover:text-blue-950 focus-ring', wholeIdClass(line.id))}
          data-open
          onNavigate={visit}
        >
          {line.id}
        </Link>
        {foundBy !== kind && <FoundBy foundBy={foundBy} kind={kind} own={kind === 'refId' ? row.refId : row.recordId} />}
        <RepeatMark line={line} />
      </td>
      <td className="px-3 py-2">
        <StatusBadge status={row.status} size="sm" />
        {opened && <OpenedMark className="ml-1 inline-block" />}
        {row.unread && <span className="mt-1 block text-xs text-amber-900">Not readable: {row.unread.join(', ')}</span>}
        {row.isArchived && (
          <span
            className="ml-1 inline-block rounded border border-slate-400 bg-slate-100 px-1.5 text-xs font-medium text-slate-800"
            title="The service archived this candidate: its identity data is gone"
          >
            Archived
          </span>
        )}
      </td>
      <td className="px-3 py-2 whitespace-nowrap text-slate-700" data-label="Since">
        <BatchSince statusDate={row.statusDate} />
      </td>
      <td className="px-3 py-2 text-slate-700 tabular-nums" data-label="Submissions">
        {row.submitCount ?? '—'}
      </td>
      <td className={cn(idCellClass(other), 'text-slate-700')} data-label={OTHER[kind]}>
        {other ? <span className={wholeIdClass(other)}>{other}</span> : '—'}
      </td>
      {triage && <TriageCell triage={row.triage} />}
    </tr>
  );
}

import type { LookupKind } from '../../kyc/contract/lookup.ts';
import type { BatchLine } from '../../kyc/view/batch-export.ts';
import { Link } from '../navigation.tsx';
import { candidatePath } from '../routes.ts';
import { Card } from '../ui/card.tsx';
import { StatusBadge } from '../ui/status-badge.tsx';
import { TimeStamp } from '../ui/time-stamp.tsx';

const OTHER: Record<LookupKind, LookupKind> = { refId: 'recordId', recordId: 'refId' };

interface TableProps {
  lines: BatchLine[];
  kind: LookupKind;
  pending: string;
  /** The path of a page in the batch's environment: a found row links to its candidate there. */
  to: (path: string) => string;
}

/** One row per id, in the order they were pasted; a row fills in when its lookup finishes. */
export function BatchTable({ lines, kind, pending, to }: TableProps) {
  return (
    <Card padding="none" className="overflow-x-auto">
      <table data-stack className="w-full text-left text-sm">
        <caption className="sr-only">Batch results, in the order of the ids</caption>
        <thead className="border-b border-slate-200 bg-slate-50 text-xs font-semibold text-slate-600 uppercase">
          <tr>
            <th scope="col" className="px-3 py-2">
              #
            </th>
            <th scope="col" className="px-3 py-2">
              {kind}
            </th>
            <th scope="col" className="px-3 py-2">
              Status
            </th>
            <th scope="col" className="px-3 py-2">
              Since
            </th>
            <th scope="col" className="px-3 py-2">
              Submissions
            </th>
            <th scope="col" className="px-3 py-2">
              {OTHER[kind]}
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {lines.map((line, index) => (
            <BatchTableRow key={line.id} line={line} index={index} kind={kind} pending={pending} to={to} />
          ))}
        </tbody>
      </table>
    </Card>
  );
}

function BatchTableRow({ line, index, kind, pending, to }: Omit<TableProps, 'lines'> & { line: BatchLine; index: number }) {
  const { row } = line;
  const idCell = <td className="max-w-72 px-3 py-2 font-mono text-xs break-all text-slate-900">{line.id}</td>;
  const number = (
    <td className="px-3 py-2 text-slate-500 tabular-nums" data-stack-hide>
      {index + 1}
    </td>
  );
  if (!row) {
    return (
      <tr data-row-state="pending">
        {number}
        {idCell}
        <td colSpan={4} className="px-3 py-2 text-slate-500 italic">
          {pending}
        </td>
      </tr>
    );
  }
  if (!row.ok) {
    return (
      <tr data-row-state="failed" data-code={row.code}>
        {number}
        {idCell}
        <td colSpan={4} className="px-3 py-2 text-red-800">
          <span className="font-medium">
            {row.code === 'not_found' ? 'Not found' : row.code === 'invalid_id' ? 'Invalid id' : 'Failed'}
          </span>
          <span className="text-red-700">: {row.message}</span>
        </td>
      </tr>
    );
  }
  const since = row.statusDate ? new Date(row.statusDate) : undefined;
  const other = kind === 'refId' ? row.recordId : row.refId;
  // Found by the kind it was found by: the link looks it up the way that worked.
  const foundBy = row.foundBy ?? kind;
  return (
    <tr data-row-state="found">
      {number}
      <td className="max-w-72 px-3 py-2 font-mono text-xs break-all">
        <Link
          to={to(candidatePath(foundBy, line.id))}
          className="rounded text-blue-800 underline underline-offset-2 hover:text-blue-950 focus-ring"
        >
          {line.id}
        </Link>
        {foundBy !== kind && <span className="block font-sans text-slate-600">found by {foundBy}</span>}
      </td>
      <td className="px-3 py-2">
        <StatusBadge status={row.status} size="sm" />
      </td>
      <td className="px-3 py-2 whitespace-nowrap text-slate-700" data-label="Since">
        {since && !Number.isNaN(since.getTime()) ? <TimeStamp date={since} /> : '—'}
      </td>
      <td className="px-3 py-2 text-slate-700 tabular-nums" data-label="Submissions">
        {row.submitCount ?? '—'}
      </td>
      <td className="max-w-72 px-3 py-2 font-mono text-xs break-all text-slate-700" data-label={OTHER[kind]}>
        {other ?? '—'}
      </td>
    </tr>
  );
}

import type { LookupKind } from '../../kyc/contract/lookup.ts';
import type { BatchLine } from '../../kyc/view/batch-export.ts';
import { Card } from '../ui/card.tsx';
import { StatusBadge } from '../ui/status-badge.tsx';
import { TimeStamp } from '../ui/time-stamp.tsx';

const OTHER: Record<LookupKind, LookupKind> = { refId: 'recordId', recordId: 'refId' };

/** One row per id, in the order they were pasted; a row fills in when its lookup finishes. */
export function BatchTable({ lines, kind, pending }: { lines: BatchLine[]; kind: LookupKind; pending: string }) {
  return (
    <Card padding="none" className="overflow-x-auto">
      <table className="w-full text-left text-sm">
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
            <BatchTableRow key={line.id} line={line} index={index} kind={kind} pending={pending} />
          ))}
        </tbody>
      </table>
    </Card>
  );
}

function BatchTableRow({ line, index, kind, pending }: { line: BatchLine; index: number; kind: LookupKind; pending: string }) {
  const { row } = line;
  const idCell = <td className="max-w-72 px-3 py-2 font-mono text-xs break-all text-slate-900">{line.id}</td>;
  const number = <td className="px-3 py-2 text-slate-500 tabular-nums">{index + 1}</td>;
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
  return (
    <tr data-row-state="found">
      {number}
      {idCell}
      <td className="px-3 py-2">
        <StatusBadge status={row.status} size="sm" />
      </td>
      <td className="px-3 py-2 whitespace-nowrap text-slate-700">
        {since && !Number.isNaN(since.getTime()) ? <TimeStamp date={since} /> : '—'}
      </td>
      <td className="px-3 py-2 text-slate-700 tabular-nums">{row.submitCount ?? '—'}</td>
      <td className="max-w-72 px-3 py-2 font-mono text-xs break-all text-slate-700">{other ?? '—'}</td>
    </tr>
  );
}

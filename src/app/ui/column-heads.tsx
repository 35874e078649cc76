import type { ReactNode } from 'react';

/** A column's heading: its text, or its text with a tooltip; false (or nothing) leaves the column out. */
export type ColumnHead = ReactNode | { label: ReactNode; title: string };

const HEADS = {
  /** A table of its own in a card: a banded row above the body. */
  banded: 'border-b border-slate-200 bg-slate-50 text-xs font-semibold tracking-wide text-slate-600 uppercase',
  /** A small table inside a section: the same letters, no band. */
  plain: 'text-xs font-semibold tracking-wide text-slate-600 uppercase',
};

/** The column headings of a table, as every table of the app has them: one row of `th scope="col"`. */
export function ColumnHeads({ columns, cell, look = 'banded' }: { columns: ColumnHead[]; cell: string; look?: keyof typeof HEADS }) {
  return (
    <thead className={HEADS[look]}>
      <tr>
        {columns
          .filter((column) => column !== false && column !== undefined && column !== null)
          .map((column, index) => {
            const { label, title } = isTitled(column) ? column : { label: column, title: undefined };
            return (
              // biome-ignore lint/suspicious/noArrayIndexKey: the columns are fixed for a table's life.
              <th key={index} scope="col" className={cell} title={title}>
                {label}
              </th>
            );
          })}
      </tr>
    </thead>
  );
}

const isTitled = (column: ColumnHead): column is { label: ReactNode; title: string } =>
  typeof column === 'object' && column !== null && 'title' in column && 'label' in column;

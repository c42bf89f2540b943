// The dashboard's tables: column headers with scope, one row per item, nothing until the data is
// loaded, and an empty state in place of a table without rows.
import type { ReactNode } from 'react';
import { EmptyState } from './empty-state.js';
import { ScrollBox } from './scroll-box.js';

export interface Column<Row> {
  /** The header's text, and the cell's label on phones when the table has `labelledCells`. */
  header: string;
  /** Only screen readers read the header (a column of buttons has nothing to show there). */
  hiddenHeader?: boolean;
  cell(row: Row): ReactNode;
}

/**
 * `rows` undefined (not loaded yet) renders nothing; no rows renders `empty`, or nothing without it.
 * `labelledCells` gives every cell its column's header as `data-label`, which the CSS shows on phones.
 */
export function DataTable<Row extends { id: string }>({
  columns,
  rows,
  empty,
  caption,
  className,
  labelledCells = false,
}: {
  columns: Column<Row>[];
  rows: Row[] | undefined;
  empty?: ReactNode;
  caption?: string;
  className?: string;
  labelledCells?: boolean;
}) {
  if (!rows) return null;
  if (rows.length === 0) return empty === undefined ? null : <EmptyState>{empty}</EmptyState>;
  return (
    <ScrollBox label={caption ?? 'Table'}>
      <table className={className}>
        {caption && <caption className="visually-hidden">{caption}</caption>}
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c.header} scope="col">
                {c.hiddenHeader ? <span className="visually-hidden">{c.header}</span> : c.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.id}>
              {columns.map((c) => (
                <td key={c.header} data-label={labelledCells ? c.header : undefined}>
                  {c.cell(row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollBox>
  );
}

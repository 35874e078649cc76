import type { AuditRow, AuditStatus } from '../../kyc/contract/audit-search.ts';

/**
 * Which rows the hash chain no longer vouches for: of an instance whose file breaks, every row written
 * after the last line the chain vouches for (its time and hash, `broken.lastVouched`), in that file and
 * in the files after it, as nothing links them to the trail before the break. Where the instance's
 * oldest break does not say that line (none before it, or an instance on an older version), every row
 * of the instance: the page cannot tell which are safe.
 */
export function unvouchedRows(status: AuditStatus | undefined): (row: AuditRow) => boolean {
  const after = new Map<string, { time: number; hash: string } | undefined>();
  for (const instance of status?.instances ?? []) {
    // Files are listed newest first: the oldest break is the one that counts.
    const oldest = instance.files.filter((file) => !file.intact).at(-1);
    if (!oldest) continue;
    const last = oldest.broken?.lastVouched;
    after.set(instance.instance, last ? { time: Date.parse(last.time), hash: last.hash } : undefined);
  }
  return (row) => {
    if (!after.has(row.instance)) return false;
    const last = after.get(row.instance);
    if (!last) return true;
    const time = Date.parse(row.time);
    return time > last.time || (time === last.time && row.hash !== last.hash);
  };
}

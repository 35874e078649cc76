import { type UseQueryResult, useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import type { AuditFilter, AuditSearchAnswer } from '../../kyc/contract/audit-search.ts';
import { readsAuditTrail } from '../../kyc/contract/roles.ts';
import { asApiError } from '../api/api-error.ts';
import { useEnvironment } from '../environment/use-environment.ts';
import { sessionQueries } from '../session/session-query.ts';
import { SourceNote } from '../ui/audit-source-note.tsx';
import { Button } from '../ui/button.tsx';
import { Card } from '../ui/card.tsx';
import { cn } from '../ui/cn.ts';
import { navigate } from '../navigation.tsx';
import type { AuditHandOver } from '../routes.ts';
import { DEFAULT_FILTER } from './audit-draft.ts';
import { ExportWaitNotice, useAuditExport } from './audit-export.tsx';
import { AuditFilters } from './audit-filters.tsx';
import { recallAudit, rememberAudit } from './audit-memory.ts';
import { auditQueries, newSearch } from './audit-queries.ts';
import { BrokenChainAlert, ChainState } from './audit-status.tsx';
import { SimilarUsers } from './audit-similar.tsx';
import { AuditTable } from './audit-table.tsx';
import { useSearchWait, WaitNotice, waitOf } from './audit-wait.tsx';

/**
 * `/audit` (issue 34), for compliance leads: who looked at whom. The trail filtered and paged newest
 * first, each row linked to its candidate, exported as CSV, and whether each instance's audit file is
 * whole. Every search and export is itself written to the audit log by the server.
 */
export function AuditPage() {
  const role = useQuery(sessionQueries.current()).data?.role;
  useEffect(() => {
    document.title = 'Audit · Candidate Lookup';
  }, []);
  if (!readsAuditTrail(role)) {
    return (
      <Card tone="warning" className="space-y-1">
        <h1 className="text-lg font-semibold">The audit page is for compliance leads</h1>
        <p className="text-sm">Ask whoever runs Candidate Lookup for the lead role if you need to read the audit trail.</p>
      </Card>
    );
  }
  return <AuditTrail />;
}

/** The candidate an Activity handed over, if this history entry holds one. */
function auditHandOverOf(state: unknown): AuditHandOver['audit'] | undefined {
  const audit = (state as Partial<AuditHandOver> | null)?.audit;
  const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);
  if (!audit || (!text(audit.refId) && !text(audit.recordId))) return undefined;
  const { refId, recordId, env } = { refId: text(audit.refId), recordId: text(audit.recordId), env: text(audit.env) };
  return { ...(refId ? { refId } : {}), ...(recordId ? { recordId } : {}), ...(env ? { env } : {}) };
}

function AuditTrail() {
  const { meta } = useEnvironment();
  // A candidate's "whole trail" (its Activity) is searched at once, and taken once: Back from a row's
  // candidate finds the search it left (audit-memory.ts), whatever the history entry held.
  const [handedOver] = useState(() => auditHandOverOf(window.history.state));
  useEffect(() => {
    if (handedOver) navigate(window.location.pathname + window.location.search, { replace: true, state: null });
  }, [handedOver]);
  const [filter, setFilter] = useState<AuditFilter>(() =>
    handedOver ? { ...DEFAULT_FILTER, ...handedOver } : (recallAudit().filter ?? DEFAULT_FILTER),
  );
  // The cursors of the pages shown before this one: "Newer" goes back one.
  const [cursors, setCursors] = useState<string[]>(() => (handedOver ? [] : (recallAudit().cursors ?? [])));
  // The search shown, by its number (audit-queries.ts): the one remembered, or a new one, asked of the server.
  const [searched, setSearched] = useState(() => (handedOver ? undefined : recallAudit().searched) ?? newSearch());
  useEffect(() => rememberAudit({ filter, cursors, searched }), [filter, cursors, searched]);
  const cursor = cursors.at(-1);
  const search = useQuery(auditQueries.search(filter, cursor, searched));
  const status = useQuery(auditQueries.status());
  // Each search is written to the trail: the files' state below is read again with its answer.
  const refetchStatus = status.refetch;
  useEffect(() => {
    if (search.dataUpdatedAt > 0) void refetchStatus();
  }, [search.dataUpdatedAt, refetchStatus]);
  // A name offered for a user who found nothing: searched, and written into the form's User field.
  const [picked, setPicked] = useState<{ user: string }>();
  const pickUser = (user: string) => {
    setFilter({ ...filter, user });
    setCursors([]);
    setSearched(newSearch());
    setPicked({ user });
    // The button goes with the offer: the keyboard goes on to the results, not back to the top of the page.
    document.getElementById('audit-results-title')?.focus();
  };
  const shown = { filter, cursors, searched, setFilter, setCursors, setSearched };
  const { wait, setWait, waiting, waitId, searchFor } = useSearchWait(search, shown);
  // Download CSV: refused while two of the lead's downloads are under way, it alone waits (audit-export.tsx).
  const { exportCsv, exporting, exportProblem, exportWait, exportWaitId, exportHeldBy } = useAuditExport({
    filter,
    waiting,
    searchFor,
    setWait,
  });
  return (
    <div className="space-y-5">
      <Card>
        <h1 className="text-2xl font-semibold text-slate-900">Audit trail</h1>
        <p className="mt-1 text-sm text-slate-600">
          Who looked up which candidate, at what level, when, from where, and what they did with it. Newest first. Your own searches and
          exports are written to the trail too, but this table and its CSV leave them out unless the Action filter asks for them (“Searched
          the audit trail”, “Exported the audit trail”). A candidate you open from a row is a lookup of your own, in the trail as well,
          showing the record as it is now, not what the line's user saw.
        </p>
      </Card>
      {status.data && <BrokenChainAlert status={status.data} />}
      <AuditFilters
        environments={meta?.environments.map((environment) => environment.name) ?? []}
        onSearch={searchFor}
        onExport={exportCsv}
        exporting={exporting}
        heldBy={waiting ? waitId : undefined}
        exportHeldBy={exportHeldBy}
        candidate={handedOver}
        picked={picked}
      />
      {wait && <WaitNotice id={waitId} wait={wait} kept={search.data !== undefined} />}
      {exportWait && <ExportWaitNotice id={exportWaitId} wait={exportWait} />}
      <p role="status" className="text-sm text-red-800 empty:hidden">
        {exportProblem}
      </p>
      <section aria-labelledby="audit-results-title" className="space-y-3">
        <h2 id="audit-results-title" tabIndex={-1} className="sr-only">
          Results
        </h2>
        <Results search={search} page={cursors.length + 1} peopleOnly={filter.who === 'people'} user={filter.user} onPickUser={pickUser} />
        <Pager
          next={search.data?.next}
          onPage={setCursors}
          cursors={cursors}
          // A page refused for the wait is not an answer: until the page last answered is back (useSearchWait),
          // Older is not taken for the last page, which handed the focus to Newer and left it on a disabled button.
          loading={search.isFetching || waitOf(search.error) !== undefined}
          heldBy={waiting ? waitId : undefined}
        />
      </section>
      {status.data && <ChainState status={status.data} />}
      {status.error && (
        <Card tone="danger" className="text-sm">
          The audit files' state could not be read: {asApiError(status.error, 'The answer could not be read.').message}
        </Card>
      )}
    </div>
  );
}

function Results({
  search,
  page,
  peopleOnly,
  user,
  onPickUser,
}: {
  search: UseQueryResult<AuditSearchAnswer>;
  page: number;
  peopleOnly: boolean;
  /** The user searched, and what to do with a name offered for it. */
  user: string | undefined;
  onPickUser: (user: string) => void;
}) {
  // Refused before any search was answered: the notice above says why and for how long.
  if (waitOf(search.error)) return <p className="text-sm text-slate-600">Nothing is shown until the wait above ends.</p>;
  if (search.error) {
    return (
      <Card tone="danger" className="text-sm" role="alert">
        {asApiError(search.error, 'The answer could not be read.').message}
      </Card>
    );
  }
  if (!search.data) return <p className="text-sm text-slate-600">Searching…</p>;
  return (
    <div className={cn('space-y-3', search.isFetching && 'opacity-60')} aria-busy={search.isFetching}>
      <SourceNote answer={search.data} onwards={'"Older" searches on from there.'} />
      <AlsoSearched also={search.data.alsoSearched} />
      {search.data.rows.length === 0 ? (
        <Card tone="dashed" className="space-y-2 text-sm">
          <p>
            No line of the trail matches these filters{page > 1 ? ' on this page' : ''}.
            {peopleOnly && ' Only people’s lines were searched: “Lines by” finds this server’s own work too.'}
          </p>
          {user !== undefined && <SimilarUsers typed={user} names={search.data.similarUsers ?? []} onPick={onPickUser} />}
        </Card>
      ) : (
        <AuditTable rows={search.data.rows} caption={`Audit trail, page ${page}, newest first`} />
      )}
    </div>
  );
}

/** The candidate's other id, searched too: a lookup's line names the candidate by the id it was asked with. */
function AlsoSearched({ also }: { also: AuditSearchAnswer['alsoSearched'] }) {
  const [kind, id] = also?.recordId ? ['recordId', also.recordId] : also?.refId ? ['refId', also.refId] : [];
  if (!kind) return null;
  return (
    <p className="text-sm text-slate-700" data-testid="also-searched">
      Also searched by the same candidate's {kind} <code className="font-mono break-all">{id}</code>, as this server's queue index knows it:
      each lookup's line names the candidate by the id it was asked with.
    </p>
  );
}

/**
 * Newer and Older, and the page's number (said when it changes). A button that the new page disables
 * hands focus to the other one, so that the keyboard is not left on the document (Older on the last
 * page, Newer back on the first). A page is a search like any other: while a wait the server asked for
 * runs (`heldBy`, the notice's id), both are held as Search is, keeping focus, since asked they would
 * only be refused again.
 */
function Pager({
  next,
  cursors,
  onPage,
  loading,
  heldBy,
}: {
  next: string | undefined;
  cursors: string[];
  onPage: (cursors: string[]) => void;
  /** A page is being read: whether there is an older one is not known yet, so Older stays where it is (and keeps focus). */
  loading: boolean;
  heldBy: string | undefined;
}) {
  const newer = useRef<HTMLButtonElement>(null);
  const older = useRef<HTMLButtonElement>(null);
  const pressed = useRef<'newer' | 'older'>(undefined);
  const olderOff = !loading && next === undefined;
  const newerOff = cursors.length === 0;
  const held = { busy: heldBy !== undefined, 'aria-describedby': heldBy };
  useEffect(() => {
    if (loading) return;
    if (pressed.current === 'older' && olderOff && !newerOff) newer.current?.focus();
    if (pressed.current === 'newer' && newerOff && !olderOff) older.current?.focus();
  }, [olderOff, newerOff, loading]);
  return (
    <div className="flex items-center gap-2">
      <Button
        ref={newer}
        variant="secondary"
        disabled={newerOff}
        {...held}
        onClick={() => {
          pressed.current = 'newer';
          onPage(cursors.slice(0, -1));
        }}
      >
        Newer
      </Button>
      <Button
        ref={older}
        variant="secondary"
        disabled={olderOff}
        {...held}
        aria-disabled={loading || held.busy || undefined}
        onClick={() => {
          if (loading || !next) return;
          pressed.current = 'older';
          onPage([...cursors, next]);
        }}
      >
        Older
      </Button>
      <span className="text-sm text-slate-600" aria-live="polite">
        Page {cursors.length + 1}
      </span>
    </div>
  );
}

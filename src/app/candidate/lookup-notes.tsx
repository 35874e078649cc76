import type { LookupKind } from '../../kyc/contract/lookup.ts';
import type { LookupNote } from '../routes.ts';

/** What happened to the id on its way here: read from a dashboard link, cleaned of invisible characters, or tried as the other kind. */
export function LookupNotes({ note, kind, id }: { note: LookupNote; kind: LookupKind; id: string }) {
  if (!note.cleaned && !note.triedAsRefId && !note.triedAsRecordId && !note.dashboard && !note.dropped && !note.asTyped) return null;
  return (
    <div role="status" className="space-y-1 rounded-md border border-slate-300 bg-white px-4 py-2 text-sm text-slate-700 print:hidden">
      {note.dashboard && <p>{note.dashboard}</p>}
      {note.cleaned && <p>Removed from the id: {note.cleaned}.</p>}
      {note.dropped && <p>Dropped {note.dropped} before looking the id up.</p>}
      {note.asTyped && <p>Looked up as typed: the box's full reading of ids could not be loaded.</p>}
      {note.triedAsRefId && kind === 'recordId' && (
        <p>
          No candidate has the refId <code className="font-mono">{id}</code>; it looks like a recordId, so it was looked up as one.
        </p>
      )}
      {note.triedAsRecordId && kind === 'refId' && (
        <p>
          No candidate has the recordId <code className="font-mono">{id}</code>; a refId can have that form too, so it was looked up as a
          refId.
        </p>
      )}
    </div>
  );
}

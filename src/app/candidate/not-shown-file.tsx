import { useContext, useState } from 'react';
import type { PictureSize } from '../../kyc/contract/picture-size.ts';
import { fileExtensionOf, type SniffedType } from '../../kyc/contract/picture-type.ts';
import { formatBytes } from '../../kyc/contract/bytes.ts';
import { labelInSentence } from '../../kyc/view/attributes.ts';
import { Button } from '../ui/button.tsx';
import { saveBlob } from '../ui/save-blob.ts';
import { FileSaveContext } from './file-save-record.ts';
import { SENT_EMPTY } from './absent-sections.tsx';

/** An attribute's name as a file name: letters, digits, `-` and `_` only, whatever the service named it. */
const fileNameOf = (name: string, type: SniffedType) => `${name.replace(/[^\w-]+/g, '_').slice(0, 60) || 'file'}.${fileExtensionOf(type)}`;

/**
 * Saving the file, as a hand-off: its audit line first (`what: "file"`, the attribute and its type), and
 * when that cannot be written nothing is saved and the reason stays beside the button until the next try,
 * as a refused copy's does. Busy until done: a second press meanwhile (a double-click) writes no second line.
 */
function useFileSave(name: string, type: SniffedType, file: (() => Blob) | undefined) {
  const record = useContext(FileSaveContext);
  const [problem, setProblem] = useState<string>();
  const [busy, setBusy] = useState(false);
  const save = async () => {
    let blob: Blob;
    try {
      blob = file!();
    } catch {
      return setProblem('The file could not be saved: its data is not valid base64.');
    }
    try {
      await record!(name, type);
    } catch (error) {
      return setProblem(`The file was not saved: ${(error as Error).message}`);
    }
    saveBlob(blob, fileNameOf(name, type));
    setProblem(undefined);
  };
  const press = () => {
    if (busy) return;
    setBusy(true);
    void save().finally(() => setBusy(false));
  };
  // Without a way to record it (no candidate view above), no file is offered: none leaves unrecorded.
  return { offered: Boolean(file && record), problem, busy, press };
}

/**
 * A picture attribute whose bytes are not a picture this page shows: an SVG, a PDF, a TIFF, a page of
 * HTML… It is named by the type sniffed from its bytes, and never rendered, not even as an <img> (an SVG
 * there runs no script, but may take the tab's CPU for minutes). The reviewer may save it from the bytes
 * already in memory and open it with a program of their own; a page or an unknown type is saved as
 * `.bin`, which nothing opens by itself. The file leaves the page, so its save is recorded first (useFileSave).
 *
 * A JPEG, PNG, WebP or GIF whose header declares more pixels than the page decodes (`tooLarge`:
 * LARGEST_SHOWN_PIXELS) is shown the same way: a few hundred kB of PNG can decode to gigabytes.
 */
export function NotShownFile({
  name,
  label,
  type,
  size,
  file,
  tooLarge,
}: {
  name: string;
  label: string;
  type: SniffedType;
  size: number;
  /** The bytes as inert octets; throws when they cannot be decoded (base64 that breaks off further on). */
  file: (() => Blob) | undefined;
  /** The picture's width and height, when it is a picture too large to show. */
  tooLarge?: PictureSize;
}) {
  const { offered, problem, busy, press } = useFileSave(name, type, file);
  const kind = type.label === 'unknown' ? 'an unknown type' : `type ${type.label}`;
  return (
    <div className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-950" data-not-shown={type.label}>
      <p className="font-medium">
        {tooLarge ? `A ${type.label} picture` : `A file of ${kind}`} (not shown) · {formatBytes(size)}
      </p>
      <p className="mt-1">
        {tooLarge
          ? `${tooLarge.width}×${tooLarge.height} px: too large to show safely; download it to open it.`
          : 'Only JPEG, PNG, WebP and GIF pictures are shown here. Save it to open it with another program if you need to.'}
      </p>
      {offered && (
        <Button
          variant="secondary"
          size="sm"
          className="mt-2"
          busy={busy}
          onClick={press}
          aria-label={`Download the ${labelInSentence(label)} (${type.label === 'unknown' ? 'unknown type' : type.label})`}
        >
          Download
        </Button>
      )}
      {problem && (
        <p role="alert" className="mt-1 text-xs">
          {problem}
        </p>
      )}
    </div>
  );
}

/**
 * A picture sent as empty text (`""`, or spaces alone: no bytes at all): said so, never "a file of an
 * unknown type · 0 B", and with nothing to download.
 */
export function EmptyPicture({ name, label, sentAs }: { name: string; label: string; sentAs?: string | undefined }) {
  return (
    <figure className="min-w-0 rounded-lg border border-slate-200 bg-slate-50 p-3" data-attribute={name} data-testid="picture-sent-empty">
      <figcaption className="mb-2 flex flex-wrap items-baseline justify-between gap-x-2 text-sm">
        <span className="font-medium text-slate-900">{label}</span>
        <span className="text-xs text-slate-600">
          {SENT_EMPTY}
          {sentAs !== undefined && ` · ${sentAs}`}
        </span>
      </figcaption>
      <p className="text-sm text-slate-500 italic">The KYC service sent this attribute empty: there is no picture to show or download.</p>
    </figure>
  );
}

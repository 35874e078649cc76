import { useState } from 'react';
import type { PictureSize } from '../../kyc/contract/picture-size.ts';
import { fileExtensionOf, type SniffedType } from '../../kyc/contract/picture-type.ts';
import { formatBytes } from '../../kyc/view/bytes.ts';
import { labelInSentence } from '../../kyc/view/attributes.ts';
import { Button } from '../ui/button.tsx';
import { saveBlob } from '../ui/save-blob.ts';

/** An attribute's name as a file name: letters, digits, `-` and `_` only, whatever the service named it. */
const fileNameOf = (name: string, type: SniffedType) => `${name.replace(/[^\w-]+/g, '_').slice(0, 60) || 'file'}.${fileExtensionOf(type)}`;

/**
 * A picture attribute whose bytes are not a picture this page shows: an SVG, a PDF, a TIFF, a page of
 * HTML… It is named by the type sniffed from its bytes, and never rendered, not even as an <img> (an SVG
 * there runs no script, but may take the tab's CPU for minutes). The reviewer may save it from the bytes
 * already in memory and open it with a program of their own; a page or an unknown type is saved as
 * `.bin`, which nothing opens by itself.
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
  const [problem, setProblem] = useState<string>();
  const kind = type.label === 'unknown' ? 'an unknown type' : `type ${type.label}`;
  const save = () => {
    try {
      saveBlob(file!(), fileNameOf(name, type));
      setProblem(undefined);
    } catch {
      setProblem('The file could not be saved: its data is not valid base64.');
    }
  };
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
      {file && (
        <Button
          variant="secondary"
          size="sm"
          className="mt-2"
          onClick={save}
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

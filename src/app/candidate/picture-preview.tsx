import { useEffect, useMemo, useRef, useState } from 'react';
import { attributeLabel } from '../../kyc/view/attributes.ts';
import {
  base64ByteLength,
  base64Head,
  base64ToBytes,
  cleanBase64,
  formatBytes,
  type SniffedType,
  sniffImageType,
} from '../../kyc/view/image.ts';
import { Button } from '../ui/button.tsx';
import { Notice } from '../ui/section.tsx';

type Decoded = { state: 'decoding' } | { state: 'ready'; url: string } | { state: 'failed'; problem: string };
type Dimensions = { width: number; height: number };

/** The picture as a Blob's object URL, revoked when the picture goes; never a multi-MB data: URL. */
function useObjectUrl(base64: string, type: SniffedType): [Decoded, (decoded: Decoded) => void] {
  const [decoded, setDecoded] = useState<Decoded>({ state: 'decoding' });
  useEffect(() => {
    if (!type.raster) return;
    let url: string | undefined;
    try {
      const bytes = base64ToBytes(base64);
      url = URL.createObjectURL(new Blob([bytes as Uint8Array<ArrayBuffer>], { type: type.mime }));
      setDecoded({ state: 'ready', url });
    } catch {
      setDecoded({ state: 'failed', problem: 'The picture data is not valid base64.' });
    }
    return () => {
      if (url) URL.revokeObjectURL(url);
    };
  }, [base64, type]);
  return [decoded, setDecoded];
}

/**
 * One base64 picture. The real type is sniffed from the first bytes; only raster images are ever
 * rendered.
 */
export function PicturePreview({ name, value, owner }: { name: string; value: string; owner: string }) {
  const label = attributeLabel(name);
  const base64 = useMemo(() => cleanBase64(value), [value]);
  const head = useMemo(() => base64Head(base64), [base64]);
  const type = useMemo(() => sniffImageType(head ?? new Uint8Array()), [head]);
  const size = base64ByteLength(base64);
  const [decoded, setDecoded] = useObjectUrl(base64, type);
  const [dimensions, setDimensions] = useState<Dimensions>();

  return (
    <figure className="min-w-0 rounded-lg border border-slate-200 bg-slate-50 p-3" data-attribute={name}>
      <figcaption className="mb-2 flex flex-wrap items-baseline justify-between gap-x-2 text-sm">
        <span className="font-medium text-slate-900">{label}</span>
        <span className="text-xs text-slate-600">
          {type.label} · {formatBytes(size)}
          {dimensions && ` · ${dimensions.width}×${dimensions.height} px`}
        </span>
      </figcaption>
      {!head ? (
        <Notice tone="warning">Not shown: the picture data is not valid base64.</Notice>
      ) : !type.raster ? (
        <Notice tone="warning">
          Not shown: this attribute holds {type.label === 'unknown' ? 'data of an unknown type' : `${type.label} data`} ({formatBytes(size)}
          ), not a picture. Only JPEG, PNG, WebP and GIF pictures are displayed.
        </Notice>
      ) : decoded.state === 'failed' ? (
        <Notice tone="warning">{decoded.problem}</Notice>
      ) : decoded.state === 'decoding' ? (
        <div role="img" className="aspect-[3/2] animate-pulse rounded bg-slate-200" aria-label={`Decoding the ${label.toLowerCase()}`} />
      ) : (
        <ZoomablePicture
          url={decoded.url}
          alt={`${label} of ${owner}`}
          label={label}
          onDimensions={setDimensions}
          onUndecodable={() => setDecoded({ state: 'failed', problem: `The ${type.label} data could not be decoded as a picture.` })}
        />
      )}
    </figure>
  );
}

/** The picture, and on click a larger view in a modal dialog. */
function ZoomablePicture({
  url,
  alt,
  label,
  onDimensions,
  onUndecodable,
}: {
  url: string;
  alt: string;
  label: string;
  onDimensions: (dimensions: Dimensions) => void;
  onUndecodable: () => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  // The large view's <img> exists only while the dialog is open: no second decode of a multi-MB picture.
  const [viewing, setViewing] = useState(false);
  return (
    <>
      <button
        type="button"
        onClick={() => {
          setViewing(true);
          dialog.current?.showModal();
        }}
        className="block w-full cursor-zoom-in overflow-hidden rounded focus-ring focus-visible:outline-offset-2"
        aria-label={`Open a larger view of the ${label.toLowerCase()}`}
      >
        <img
          src={url}
          alt={alt}
          decoding="async"
          className="mx-auto max-h-64 w-auto max-w-full object-contain"
          onLoad={(event) => onDimensions({ width: event.currentTarget.naturalWidth, height: event.currentTarget.naturalHeight })}
          onError={onUndecodable}
        />
      </button>
      {/* closedby="any": a click on the backdrop closes it, as Escape does. Opening focuses the first
          control inside (Close). */}
      <dialog
        ref={dialog}
        aria-label={alt}
        closedby="any"
        className="m-auto max-h-[95vh] max-w-[95vw] rounded-lg bg-white p-3 shadow-2xl backdrop:bg-slate-900/70"
        onClose={() => setViewing(false)}
      >
        <div className="mb-2 flex items-center justify-between gap-4">
          <p className="font-medium text-slate-900">{alt}</p>
          <Button variant="secondary" onClick={() => dialog.current?.close()}>
            Close
          </Button>
        </div>
        {viewing && <img src={url} alt={alt} className="max-h-[80vh] max-w-full object-contain" />}
      </dialog>
    </>
  );
}

import { useEffect, useMemo, useState } from 'react';
import { attributeLabel } from '../../kyc/view/attributes.ts';
import { base64ByteLength, base64Head, base64ToBytes, cleanBase64, formatBytes } from '../../kyc/view/image.ts';
import { type SniffedType, sniffImageType } from '../../kyc/contract/picture-type.ts';
import { useMaskedItem } from '../preferences/privacy-mask.tsx';
import { Notice } from '../ui/section.tsx';
import type { ViewerPicture } from '../viewer/viewer-picture.ts';

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

type PictureEvents = {
  /** The decoded picture for the viewer (its object URL and size), or undefined when there is none. */
  onReady: (name: string, picture: ViewerPicture | undefined) => void;
  onOpen: (name: string) => void;
  /** The pointer or focus is on the thumbnail: a good moment to fetch the viewer. */
  onIntent: () => void;
  thumbnailRef: (name: string, element: HTMLButtonElement | null) => void;
};

/**
 * One base64 picture. The real type is sniffed from the first bytes; only raster images are ever
 * rendered, and the viewer opens on the same object URL (nothing is decoded twice).
 */
export function PicturePreview({ name, value, owner, ...events }: { name: string; value: string; owner: string } & PictureEvents) {
  const label = attributeLabel(name);
  const base64 = useMemo(() => cleanBase64(value), [value]);
  const head = useMemo(() => base64Head(base64), [base64]);
  const type = useMemo(() => sniffImageType(head ?? new Uint8Array()), [head]);
  const size = base64ByteLength(base64);
  const [decoded, setDecoded] = useObjectUrl(base64, type);
  const [dimensions, setDimensions] = useState<Dimensions>();

  const alt = `${label} of ${owner}`;
  const url = decoded.state === 'ready' ? decoded.url : undefined;
  const { onReady } = events;
  useEffect(() => {
    onReady(name, url ? { name, label, alt, url, width: dimensions?.width, height: dimensions?.height } : undefined);
  }, [onReady, name, label, alt, url, dimensions?.width, dimensions?.height]);

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
        <Thumbnail
          name={name}
          url={decoded.url}
          alt={alt}
          label={label}
          events={events}
          onDimensions={setDimensions}
          onUndecodable={() => setDecoded({ state: 'failed', problem: `The ${type.label} data could not be decoded as a picture.` })}
        />
      )}
    </figure>
  );
}

/** The picture, blurred while masked; a click or Enter opens the document viewer on it. */
function Thumbnail({
  name,
  url,
  alt,
  label,
  events,
  onDimensions,
  onUndecodable,
}: {
  name: string;
  url: string;
  alt: string;
  label: string;
  events: PictureEvents;
  onDimensions: (dimensions: Dimensions) => void;
  onUndecodable: () => void;
}) {
  const mask = useMaskedItem(`picture:${name}`);
  return (
    <button
      type="button"
      ref={(element) => events.thumbnailRef(name, element)}
      onClick={() => {
        mask.reveal();
        events.onOpen(name);
      }}
      onFocus={() => {
        mask.onFocus();
        events.onIntent();
      }}
      onBlur={mask.onBlur}
      onPointerEnter={events.onIntent}
      data-masked={mask.hidden ? 'hidden' : undefined}
      className="relative block w-full cursor-zoom-in overflow-hidden rounded focus-ring focus-visible:outline-offset-2"
      aria-label={`Open a larger view of the ${label.toLowerCase()}`}
    >
      <img
        src={url}
        alt={alt}
        decoding="async"
        className={`mx-auto max-h-64 w-auto max-w-full object-contain ${mask.hidden ? 'blur-xl' : ''}`}
        onLoad={(event) => onDimensions({ width: event.currentTarget.naturalWidth, height: event.currentTarget.naturalHeight })}
        onError={onUndecodable}
      />
      {mask.hidden && (
        <span className="absolute inset-x-0 bottom-2 mx-auto w-fit rounded bg-white/90 px-2 py-0.5 text-xs font-medium text-slate-900">
          Masked: click or focus to show
        </span>
      )}
    </button>
  );
}

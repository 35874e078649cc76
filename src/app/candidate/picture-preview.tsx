import { type ReactNode, useCallback, useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import { attributeLabel, labelInSentence } from '../../kyc/view/attributes.ts';
import { formatBytes } from '../../kyc/contract/bytes.ts';
import { base64ByteLength, base64Head, base64PictureSize, base64ToBytes, cleanBase64 } from '../../kyc/view/image.ts';
import { isTooLargeToShow, type PictureSize } from '../../kyc/contract/picture-size.ts';
import { type SniffedType, sniffImageType } from '../../kyc/contract/picture-type.ts';
import { useMaskedItem } from '../preferences/privacy-reveal.tsx';
import { Notice } from '../ui/section.tsx';
import type { ViewerPicture } from '../viewer/viewer-picture.ts';
import type { PictureParts, PictureState } from '../api/picture-parts.ts';
import { EmptyPicture, NotShownFile } from './not-shown-file.tsx';

const NONE = () => () => {};

/** A picture's part as it arrives: the card re-renders with each update of its progress. */
function usePictureState(parts: PictureParts | undefined, name: string): PictureState | undefined {
  return useSyncExternalStore(parts ? parts.subscribe : NONE, () => parts?.get(name));
}

type Decoded = { state: 'decoding' } | { state: 'ready'; url: string } | { state: 'failed'; problem: string };
type Dimensions = PictureSize;

/**
 * What a card shows: the picture's object URL once there is one (its preview's, with the picture's own
 * progress, while only the preview is in), or why not yet or never.
 */
type View =
  | Decoded
  | { state: 'ready'; url: string; preview: { received: number } }
  | { state: 'invalid' }
  | { state: 'not_raster' }
  | { state: 'too_large'; pixels: PictureSize }
  | { state: 'downloading'; received: number };

type Source = (() => Blob) | undefined;
type Made = { source: Source; preview: boolean; decoded: Decoded };

/**
 * The picture as a Blob's object URL, revoked when the picture goes; never a multi-MB data: URL. The URL is
 * made in an effect, after the render that brought its source: in that render the last URL made is still
 * the one returned. A preview's stays marked as one (`preview`) until the picture's own URL is made, so
 * that no render hands the viewer a preview as the picture (its pane is keyed preview or full).
 */
function useObjectUrl(source: Source, preview: boolean): { decoded: Decoded; preview: boolean; setDecoded: (decoded: Decoded) => void } {
  const [made, setMade] = useState<Made>({ source: undefined, preview: false, decoded: { state: 'decoding' } });
  useEffect(() => {
    if (!source) return;
    let url: string | undefined;
    try {
      url = URL.createObjectURL(source());
      setMade({ source, preview, decoded: { state: 'ready', url } });
    } catch {
      setMade({ source, preview, decoded: { state: 'failed', problem: 'The picture data is not valid base64.' } });
    }
    return () => {
      if (url) URL.revokeObjectURL(url);
    };
  }, [source, preview]);
  const setDecoded = useCallback((decoded: Decoded) => setMade({ source, preview, decoded }), [source, preview]);
  const previewStill = made.source !== source && made.preview && made.decoded.state === 'ready';
  return { decoded: made.decoded, preview: preview || previewStill, setDecoded };
}

/**
 * One picture's type, size and view: from its own part of the answer (picture-parts.ts) when it came in
 * parts, otherwise decoded from the base64 in the record. Either way the type is sniffed from the bytes.
 */
function usePictureSource(name: string, value: string, parts: PictureParts | undefined) {
  const part = usePictureState(parts, name);
  const inParts = part !== undefined;
  const base64 = useMemo(() => (inParts ? '' : cleanBase64(value)), [inParts, value]);
  const head = useMemo(() => (inParts ? undefined : base64Head(base64)), [inParts, base64]);
  const sniffed = useMemo(() => sniffImageType(head ?? new Uint8Array()), [head]);
  const type = part?.type ?? sniffed;
  const blob = part?.state === 'ready' ? part.blob : part?.state === 'loading' ? part.preview : undefined;
  // Read from the header before anything decodes it: a picture too large to show is never put in an <img>.
  const base64Pixels = useMemo(() => (head && sniffed.raster ? base64PictureSize(base64) : undefined), [head, sniffed, base64]);
  const pixels = inParts ? (part.state === 'ready' ? part.pixels : undefined) : base64Pixels;
  const tooLarge = pixels !== undefined && isTooLargeToShow(pixels);
  const source = useMemo(() => {
    if (tooLarge) return undefined;
    if (inParts) return blob && (() => blob);
    if (!head || !sniffed.raster) return undefined;
    return () => new Blob([base64ToBytes(base64) as Uint8Array<ArrayBuffer>], { type: sniffed.mime });
  }, [tooLarge, inParts, blob, head, sniffed, base64]);
  const shown = useObjectUrl(source, part?.state === 'loading');
  const { decoded, setDecoded } = shown;
  // A file that is not shown may be saved: the part's octets, or the record's base64 decoded when asked.
  const file = useMemo(() => {
    if (inParts) {
      const { file, blob } = part.state === 'ready' ? part : {};
      if (file) return () => file;
      // A picture too large to show is saved as its bytes, as octets: the browser does not open it.
      return tooLarge && blob ? () => new Blob([blob], { type: 'application/octet-stream' }) : undefined;
    }
    if (!head || (sniffed.raster && !tooLarge)) return undefined;
    return () => new Blob([base64ToBytes(base64) as Uint8Array<ArrayBuffer>], { type: 'application/octet-stream' });
  }, [inParts, part, head, sniffed, base64, tooLarge]);
  const size = inParts ? part.size : base64ByteLength(base64);
  let view: View = decoded;
  if (part?.state === 'loading' && !part.preview) view = { state: 'downloading', received: part.received };
  else if (part?.state === 'failed') view = { state: 'failed', problem: part.problem };
  else if (!inParts && !head) view = { state: 'invalid' };
  else if (!type.raster) view = { state: 'not_raster' };
  else if (tooLarge) view = { state: 'too_large', pixels };
  else if (shown.preview && decoded.state === 'ready') {
    // The preview, until the picture's own URL is made (one render after its part is in: all of it received).
    view = { ...decoded, preview: { received: part?.state === 'loading' ? part.received : size } };
  }
  // Sent as empty text: no bytes, in the record or in its part (EmptyPicture).
  return { type, size, view, setDecoded, file, empty: inParts ? part.size === 0 : base64 === '' };
}

type PictureEvents = {
  /** The decoded picture for the viewer (its object URL and size), or undefined when there is none. */
  onReady: (name: string, picture: ViewerPicture | undefined) => void;
  onOpen: (name: string) => void;
  /** The pointer or focus is on the thumbnail: a good moment to fetch the viewer. */
  onIntent: () => void;
  thumbnailRef: (name: string, element: HTMLButtonElement | null) => void;
};

type PreviewProps = {
  name: string;
  value: string;
  owner: string;
  parts?: PictureParts;
  /** How the attribute came when not as `base64` ("sent as type file", attributes.ts's isPictureOfOtherType): said on the card. */
  sentAs?: string;
} & PictureEvents;

/**
 * One picture. The real type is sniffed from the first bytes; only raster images are ever rendered, and
 * the viewer opens on the same object URL (nothing is decoded or downloaded twice).
 */
export function PicturePreview({ name, value, owner, parts, sentAs, ...events }: PreviewProps) {
  const label = attributeLabel(name);
  const { type, size, view, setDecoded, file, empty } = usePictureSource(name, value, parts);
  const [loaded, setDimensions] = useState<Dimensions>();
  const dimensions = view.state === 'too_large' ? view.pixels : loaded;

  const alt = `${label} of ${owner}`;
  const url = view.state === 'ready' ? view.url : undefined;
  const preview = view.state === 'ready' && 'preview' in view ? view.preview : undefined;
  const { onReady } = events;
  const received = preview?.received;
  useEffect(() => {
    const loading = received === undefined ? undefined : { received, size };
    onReady(name, url ? { name, label, alt, url, width: dimensions?.width, height: dimensions?.height, loading } : undefined);
  }, [onReady, name, label, alt, url, dimensions?.width, dimensions?.height, received, size]);

  if (empty) return <EmptyPicture name={name} label={label} sentAs={sentAs} />;
  return (
    <figure className="min-w-0 rounded-lg border border-slate-200 bg-slate-50 p-3" data-attribute={name}>
      <figcaption className="mb-2 flex flex-wrap items-baseline justify-between gap-x-2 text-sm">
        <span className="font-medium text-slate-900">{label}</span>
        <span className="text-xs text-slate-600">
          {type.label} · {formatBytes(size)}
          {dimensions && !preview && ` · ${dimensions.width}×${dimensions.height} px`}
          {sentAs !== undefined && ` · ${sentAs}`}
        </span>
      </figcaption>
      {view.state === 'ready' ? (
        <Thumbnail
          name={name}
          url={view.url}
          alt={alt}
          label={label}
          events={events}
          onDimensions={setDimensions}
          onUndecodable={() => setDecoded({ state: 'failed', problem: `The ${type.label} data could not be decoded as a picture.` })}
          note={preview && <PreviewNote label={label} received={preview.received} size={size} />}
        />
      ) : (
        <PictureStatus view={view} name={name} label={label} type={type} size={size} file={file} />
      )}
    </figure>
  );
}

/** Under a preview: that it is one, and the full picture's download. */
function PreviewNote({ label, received, size }: { label: string; received: number; size: number }) {
  const text = `Preview: the full ${labelInSentence(label)}, ${formatBytes(received)} of ${formatBytes(size)}`;
  return (
    <div className="mt-2 flex items-center gap-2 text-xs text-slate-700" data-preview-note>
      <span className="rounded bg-amber-100 px-1.5 py-0.5 font-medium text-amber-900">Preview</span>
      <progress
        className="min-w-0 flex-1"
        max={size}
        value={received}
        aria-label={`${label}: full picture downloading`}
        aria-valuetext={text}
      />
    </div>
  );
}

/** Everything but the picture itself: its download, or why it is not shown. */
function PictureStatus({
  view,
  name,
  label,
  type,
  size,
  file,
}: {
  view: Exclude<View, { state: 'ready' }>;
  name: string;
  label: string;
  type: SniffedType;
  size: number;
  file: (() => Blob) | undefined;
}) {
  if (view.state === 'invalid') return <Notice tone="warning">Not shown: the picture data is not valid base64.</Notice>;
  if (view.state === 'not_raster') return <NotShownFile name={name} label={label} type={type} size={size} file={file} />;
  if (view.state === 'too_large')
    return <NotShownFile name={name} label={label} type={type} size={size} file={file} tooLarge={view.pixels} />;
  if (view.state === 'failed') return <Notice tone="warning">{view.problem}</Notice>;
  if (view.state === 'downloading') {
    const text = `${label}: ${formatBytes(view.received)} of ${formatBytes(size)}`;
    return (
      <div className="flex aspect-[3/2] flex-col justify-end gap-2 rounded bg-slate-200 p-3">
        <p className="text-sm text-slate-700">{text}</p>
        <progress className="w-full" max={size} value={view.received} aria-label={`${label} downloading`} aria-valuetext={text} />
      </div>
    );
  }
  return (
    <div role="img" className="aspect-[3/2] animate-pulse rounded bg-slate-200" aria-label={`Decoding the ${labelInSentence(label)}`} />
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
  note,
}: {
  name: string;
  url: string;
  alt: string;
  label: string;
  events: PictureEvents;
  onDimensions: (dimensions: Dimensions) => void;
  onUndecodable: () => void;
  /** Under the picture: that it is only a preview so far. */
  note?: ReactNode;
}) {
  const mask = useMaskedItem(`picture:${name}`);
  const button = (
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
      className="relative block w-full cursor-zoom-in overflow-hidden rounded focus-ring-offset"
      aria-label={`Open a larger view of the ${labelInSentence(label)}`}
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
          <span className="print:hidden">Masked: click or focus to show</span>
          <span className="hidden print:inline">{label}: masked</span>
        </span>
      )}
    </button>
  );
  return note ? (
    <>
      {button}
      {note}
    </>
  ) : (
    button
  );
}

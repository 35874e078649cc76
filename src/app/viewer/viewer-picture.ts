/**
 * A picture as the viewer receives it: the object URL the thumbnail already shows (never the base64
 * or the bytes), and what is known about it.
 */
export interface ViewerPicture {
  /** The identity attribute's name: `selfie`, `passport`, ... */
  name: string;
  label: string;
  alt: string;
  url: string;
  /** Natural size, EXIF orientation applied, once the thumbnail has loaded. */
  width?: number;
  height?: number;
}

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
  /**
   * Set while `url` is only the server's preview (a downscaled copy): the full picture's bytes received
   * of its size. The viewer shows the preview, says it waits, and zooms only the full picture.
   */
  loading?: { received: number; size: number };
}

/**
 * Saves `blob` as a file named `fileName`, from memory: an object URL on a link that is clicked once and
 * revoked a little later. Nothing goes through a URL's query string, the server or browser storage.
 */
export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  // The download has its own copy once it started; a little later the object URL can go.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

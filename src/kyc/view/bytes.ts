/**
 * A size in words: "840 B", "3.2 kB", "14.8 MB". Apart from the pictures' decoding (image.ts), which
 * brings the type sniffing with it: the loading skeleton of the first load needs only this.
 */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(bytes < 10 * 1024 ? 1 : 0)} kB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

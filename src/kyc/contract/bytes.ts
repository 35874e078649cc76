/**
 * A size in words: "840 B", "3.2 kB", "14.8 MB", "64 MB", "1 GB", with at most one decimal and none that is 0. In
 * the contract, as the server says a limit in the same words as the app a picture's size. Apart from the
 * pictures' decoding (image.ts), which brings the type sniffing with it: the loading skeleton of the first
 * load needs only this.
 */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return 'an unknown size';
  if (bytes < 1024) return `${bytes} B`;
  const kB = bytes / 1024;
  const inKB = kB.toFixed(kB < 10 ? 1 : 0);
  // 1023.6 kB rounds to 1024: said as 1 MB, never "1024 kB"; the same from MB to GB.
  if (Number(inKB) < 1024) return `${plain(inKB)} kB`;
  const inMB = (kB / 1024).toFixed(1);
  if (Number(inMB) < 1024) return `${plain(inMB)} MB`;
  return `${plain((kB / 1024 / 1024).toFixed(1))} GB`;
}

const plain = (number: string) => number.replace(/\.0$/, '');

/** A machine name as a label: `tax_id` -> "Tax ID", `someNewProvider` -> "Some New Provider"; short words upper-cased. */
export function humanise(name: string): string {
  const words = name
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .split(/[-_\s]+/)
    .filter(Boolean);
  return words
    .map((word, i) => (i === 0 ? word[0]!.toUpperCase() + word.slice(1) : word.length <= 2 ? word.toUpperCase() : word))
    .join(' ');
}

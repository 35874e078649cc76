/** Joins class names, leaving out the ones a condition turned off. */
export function cn(...classes: Array<string | false | null | undefined>): string {
  return classes.filter(Boolean).join(' ');
}

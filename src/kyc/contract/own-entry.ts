/**
 * A table's entry for a key that came from outside (a record's attribute name, a certificate's slug, a
 * webhook's event): its own entry only. `TABLE[key]` reads through to Object.prototype: an attribute named
 * `constructor`, `__proto__` or `toString` got a function or an object for its label, and the candidate page
 * went blank ("e.replace is not a function").
 */
export function ownEntry<T>(table: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}

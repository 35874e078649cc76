/**
 * An id that the rule for personal data (readsLikePersonalData) never flags, told without that rule, which
 * comes after the first paint: ASCII letters, digits, `-`, `_` and `.` with a letter or `_` among them, or
 * digits alone. A name, an e-mail address or a date in words needs a space or an `@`; digits with dots
 * or dashes may be a phone number or a date (`06.12.34.56.78`, `1988-07-14`), so they are not plain.
 * The search box asks about any other text when the rule did not load (use-lookup-form.ts); the property
 * test in test/unit/personal-data.test.ts holds the two rules together.
 */
export const isPlainId = (id: string) => /^[\w.-]*[A-Za-z_][\w.-]*$|^\d+$/.test(id);

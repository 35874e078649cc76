import countries from 'i18n-iso-countries';

/**
 * Country names from ISO 3166-1 codes: the code table from i18n-iso-countries (no locale data), the
 * names from the browser's own Intl.DisplayNames in the reader's language.
 */
export function countryName(code: string | undefined, locale?: string): string | undefined {
  const alpha2 = alpha2Of(code);
  if (!alpha2) return undefined;
  try {
    const name = new Intl.DisplayNames(locale ? [locale] : undefined, { type: 'region', fallback: 'none' }).of(alpha2);
    return name ?? undefined;
  } catch {
    return undefined;
  }
}

/** The ISO 3166-1 alpha-2 code of a country given by its alpha-3 or alpha-2 code, in any case; undefined for no country. */
export function alpha2Of(code: string | undefined): string | undefined {
  if (!code) return undefined;
  const upper = code.trim().toUpperCase();
  const alpha2 = upper.length === 3 ? countries.alpha3ToAlpha2(upper) : upper.length === 2 ? upper : undefined;
  return alpha2 && countries.isValid(alpha2) ? alpha2 : undefined;
}

/**
 * Every country's and territory's name in each of the languages, as the browser's Intl.DisplayNames gives
 * it, long and short ("Hong Kong SAR China", "Hong Kong"; "Vereinigtes Königreich", "UK").
 */
export function countryNamesIn(locales: readonly string[]): string[] {
  const codes = Object.keys(countries.getAlpha2Codes());
  return locales.flatMap((locale) =>
    (['long', 'short'] as const).flatMap((style) => {
      try {
        const names = new Intl.DisplayNames([locale], { type: 'region', style, fallback: 'none' });
        return codes.map((code) => names.of(code)).filter((name): name is string => name !== undefined);
      } catch {
        return [];
      }
    }),
  );
}

/** Date of birth: documented as MM/DD/YYYY. Anything else is shown raw. */
export interface DateOfBirth {
  year: number;
  month: number;
  day: number;
}

export function parseDob(raw: string): DateOfBirth | undefined {
  const match = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(raw.trim());
  if (!match) return undefined;
  const [month, day, year] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return undefined;
  return { year, month, day };
}

/** Age in whole years on `today` (local calendar date). */
export function ageOn(dob: DateOfBirth, today: Date): number {
  const hadBirthday = today.getMonth() + 1 > dob.month || (today.getMonth() + 1 === dob.month && today.getDate() >= dob.day);
  return today.getFullYear() - dob.year - (hadBirthday ? 0 : 1);
}

/** A localised long date, computed in UTC so no time zone can shift the day. */
export function formatDob(dob: DateOfBirth, locale?: string): string {
  return new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone: 'UTC' }).format(
    new Date(Date.UTC(dob.year, dob.month - 1, dob.day)),
  );
}

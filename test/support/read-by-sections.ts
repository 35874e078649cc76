/**
 * The top-level fields a candidate page's sections read (the header, the timeline, custom fields,
 * identities, certificates), named here on their own, apart from the code under test: the oracle of the
 * "Other fields in this response" tests. Any `…Date` field is the timeline's.
 */
export const READ_BY_SECTIONS: ReadonlySet<string> = new Set([
  'status',
  'refId',
  'recordId',
  'isArchived',
  'blockPassID',
  'serviceID',
  'submitCount',
  'customFields',
  'identities',
  'certs',
]);

export const readBySection = (key: string): boolean => READ_BY_SECTIONS.has(key) || key.endsWith('Date');

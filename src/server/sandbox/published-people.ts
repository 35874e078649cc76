import { DAY, HOUR, MINUTE, type Person } from './person.ts';

/**
 * Candidates in the forms the real service has published beside its contract (upstream-api-facts.md):
 * its first status answer carries no `isArchived`, its archive examples no `blockPassID`, its full-level
 * example no `recordId` (its status level and the list have it). The app reads them as it reads any
 * record (record-reading.ts): what is there is shown, what is not is named.
 */
export const PUBLISHED_PEOPLE: Person[] = [
  {
    refId: 'published-status-answer',
    recordId: '5b2a7c0e9d8f6a4b3c2d1e01',
    blockPassID: '5b2a7c0e9d8f6a4b3c2d1e90',
    summary: 'The first published status answer: no isArchived',
    status: 'inreview',
    dates: { waitingDate: 3 * HOUR, inreviewDate: 2 * HOUR + 10 * MINUTE },
    omit: ['isArchived'],
    givenName: 'Tomás',
    familyName: 'Herrera',
    latinName: 'Tomas Herrera',
    email: 'tomas.herrera@example.es',
    dob: '03/02/1991',
    pictures: { selfie: 'jpeg' },
  },
  {
    refId: 'published-archive-example',
    recordId: '5b2a7c0e9d8f6a4b3c2d1e02',
    blockPassID: '5b2a7c0e9d8f6a4b3c2d1e91',
    summary: 'Archived, as the published archive examples show it: no blockPassID',
    status: 'approved',
    dates: { waitingDate: 40 * DAY, inreviewDate: 40 * DAY - HOUR, approvedDate: 39 * DAY },
    isArchived: true,
    omit: ['blockPassID'],
    latinName: 'Archived candidate',
    pictures: {},
  },
  {
    refId: 'published-full-example',
    recordId: '5b2a7c0e9d8f6a4b3c2d1e03',
    blockPassID: '5b2a7c0e9d8f6a4b3c2d1e92',
    summary: 'The published full-level example: no recordId (the status level and the list have it)',
    status: 'inreview',
    // Dates of its own: a queue ordered by them is one order, whatever breaks a tie.
    dates: { waitingDate: 7 * HOUR + 10 * MINUTE, inreviewDate: 6 * HOUR + 25 * MINUTE },
    submitCount: 1,
    fullOmit: ['recordId'],
    givenName: 'Ingrid',
    familyName: 'Solberg',
    latinName: 'Ingrid Solberg',
    email: 'ingrid.solberg@example.no',
    dob: '09/21/1985',
    pictures: { selfie: 'jpeg', passport: 'jpeg' },
  },
];

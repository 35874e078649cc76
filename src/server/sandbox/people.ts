import type { Phone, PostalAddress } from '../../kyc/contract/identity-values.ts';
import type { CertificateSpec } from './certificates.ts';
import type { PictureFormat, PictureKind, PictureOrientation } from './images.ts';

/**
 * The sandbox's made-up people: data only. `candidates.ts` builds the records from it (dates relative to
 * the start, pictures drawn, certificates signed), so this file reads like the list it is.
 */

/** One made-up candidate, as the builder turns it into a record. */
export interface Person {
  refId?: string;
  recordId: string;
  blockPassID: string;
  summary: string;
  status: string;
  /** Status dates as offsets before `now`, in seconds. */
  dates: Record<string, number>;
  submitCount?: number;
  isArchived?: boolean;
  /** willArchiveAtDate as an offset after `now`, in seconds. */
  archivesIn?: number;
  givenName?: string;
  familyName?: string;
  /** The name as printed on Latin-script documents. */
  latinName: string;
  email?: string;
  dob?: string;
  address?: PostalAddress;
  phone?: Phone;
  /** A format, or a format with how the picture is turned (a sideways photo, or EXIF orientation). */
  pictures: Partial<Record<PictureKind, PictureFormat | { format: PictureFormat; orientation: PictureOrientation }>>;
  customFields?: Record<string, string>;
  certs?: Array<{ provider: CertificateSpec['provider']; result: 'clear' | 'consider' | 'no_match' | 'potential_match'; broken?: boolean }>;
}

/** Offsets in seconds. */
export const MINUTE = 60;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

/** The sample candidates: every status, an archived record, a candidate without refId, several scripts. */
export const PEOPLE: Person[] = [
  {
    refId: 'c0a8f3e2-6b1d-4f7e-9a52-3d1e8b7c4a10',
    recordId: '65f1c2a9e4b0d3a1f0c9b801',
    blockPassID: '5e8f1a2b3c4d5e6f7a8b9c01',
    summary: 'Approved, full record with two certificates and a PNG proof of address',
    status: 'approved',
    dates: { waitingDate: 5 * DAY, inreviewDate: 5 * DAY - 14, approvedDate: 4 * DAY + 3 * HOUR },
    submitCount: 1,
    givenName: 'Amélie',
    familyName: 'Dubois-Léger',
    latinName: 'Amelie Dubois-Leger',
    email: 'amelie.dubois-leger@example.fr',
    dob: '07/14/1988',
    address: {
      address: '18 rue des Martyrs',
      extraInfo: 'Bâtiment B, 3e étage',
      city: 'Paris',
      state: '',
      postalCode: '75009',
      country: 'FRA',
    },
    phone: { countryCode: 'FRA', countryCode2: 'fr', phoneNumber: '+33612345678', number: '612345678' },
    pictures: { selfie: 'jpeg', passport: 'jpeg', proof_of_address: 'png' },
    customFields: { riskLevel: 'low', customerTier: 'gold', accountId: 'ACC-100234' },
    certs: [
      { provider: 'onfido', result: 'clear' },
      { provider: 'complyadvantage', result: 'no_match' },
    ],
  },
  {
    refId: 'cust_000482',
    recordId: '65f1c2a9e4b0d3a1f0c9b802',
    blockPassID: '5e8f1a2b3c4d5e6f7a8b9c02',
    summary: 'In review, name in Chinese script, selfie with national ID',
    status: 'inreview',
    dates: { waitingDate: 2 * HOUR, inreviewDate: 25 * MINUTE },
    submitCount: 1,
    givenName: '秀英',
    familyName: '王',
    latinName: 'Wang Xiuying',
    email: 'xiuying.wang@example.hk',
    dob: '02/29/1996',
    address: {
      address: '88 Queensway, Flat 12A',
      extraInfo: 'Admiralty Tower 2',
      city: 'Hong Kong',
      state: 'Central and Western',
      postalCode: '',
      country: 'HKG',
    },
    phone: { countryCode: 'HKG', countryCode2: 'hk', phoneNumber: '+85291234567', number: '91234567' },
    pictures: { selfie: 'jpeg', selfie_national_id: 'jpeg' },
    customFields: { riskLevel: 'medium', sourceOfFunds: 'Employment income' },
    certs: [{ provider: 'onfido', result: 'clear' }],
  },
  {
    refId: '8f14e45f-ceea-467f-a0e6-1c9e5a2b7d33',
    recordId: '65f1c2a9e4b0d3a1f0c9b803',
    blockPassID: '5e8f1a2b3c4d5e6f7a8b9c03',
    summary: 'Waiting for review, Cyrillic name, no address given',
    status: 'waiting',
    dates: { waitingDate: 40 * MINUTE },
    submitCount: 1,
    givenName: 'Дмитрий',
    familyName: 'Иванов',
    latinName: 'Dmitriy Ivanov',
    email: 'd.ivanov@example.ee',
    dob: '11/03/1979',
    phone: { countryCode: 'EST', countryCode2: 'ee', phoneNumber: '+3725123456', number: '5123456' },
    pictures: { selfie: 'jpeg', passport: 'jpeg' },
    customFields: { riskLevel: 'low' },
  },
  {
    refId: 'crm-55102',
    recordId: '65f1c2a9e4b0d3a1f0c9b804',
    blockPassID: '5e8f1a2b3c4d5e6f7a8b9c04',
    summary: 'Incomplete: provider checks pending, only name and e-mail so far',
    status: 'incomplete',
    dates: { waitingDate: 12 * MINUTE },
    givenName: 'João',
    familyName: 'Gonçalves',
    latinName: 'Joao Goncalves',
    email: 'joao.goncalves@example.com.br',
    pictures: {},
  },
  {
    refId: 'a3b6c9d2-1e4f-4a7b-8c0d-9e2f5a8b1c4d',
    recordId: '65f1c2a9e4b0d3a1f0c9b805',
    blockPassID: '5e8f1a2b3c4d5e6f7a8b9c05',
    summary: 'Rejected after a second submission; one certificate is not valid JSON',
    status: 'rejected',
    dates: { waitingDate: 9 * DAY, inreviewDate: 9 * DAY - 75, rejectedDate: 8 * DAY + 6 * HOUR },
    submitCount: 2,
    givenName: 'Zoë',
    familyName: 'Ångström',
    latinName: 'Zoe Angstrom',
    email: 'zoe.angstrom@example.se',
    dob: '12/04/1990',
    address: {
      address: 'Drottninggatan 53',
      extraInfo: '',
      city: 'Stockholm',
      state: '',
      postalCode: '111 21',
      country: 'SWE',
    },
    phone: { countryCode: 'SWE', countryCode2: 'se', phoneNumber: '+46701234567', number: '701234567' },
    pictures: { selfie: 'jpeg', passport: 'jpeg' },
    customFields: { riskLevel: 'high', rejectionNote: 'Passport photo is blurred; please resubmit.' },
    certs: [{ provider: 'onfido', result: 'consider', broken: true }],
  },
  {
    refId: 'user-7781',
    recordId: '65f1c2a9e4b0d3a1f0c9b806',
    blockPassID: '5e8f1a2b3c4d5e6f7a8b9c06',
    summary: 'Blocked after a potential sanctions match',
    status: 'blocked',
    dates: { waitingDate: 30 * DAY, inreviewDate: 30 * DAY - 3 * MINUTE, blockedDate: 29 * DAY },
    submitCount: 1,
    givenName: 'Mehmet',
    familyName: 'Yılmaz',
    latinName: 'Mehmet Yilmaz',
    email: 'mehmet.yilmaz@example.com.tr',
    dob: '05/21/1968',
    address: {
      address: 'İstiklal Caddesi No. 102',
      extraInfo: 'Daire 4',
      city: 'İstanbul',
      state: 'Beyoğlu',
      postalCode: '34433',
      country: 'TUR',
    },
    phone: { countryCode: 'TUR', countryCode2: 'tr', phoneNumber: '+905321234567', number: '5321234567' },
    pictures: { selfie: 'jpeg', passport: 'jpeg' },
    customFields: { riskLevel: 'high', screeningCase: 'CA-2026-00917' },
    certs: [
      { provider: 'onfido', result: 'clear' },
      { provider: 'complyadvantage', result: 'potential_match' },
    ],
  },
  {
    refId: 'support-ticket-4410',
    recordId: '65f1c2a9e4b0d3a1f0c9b807',
    blockPassID: '5e8f1a2b3c4d5e6f7a8b9c07',
    summary: 'Review requested after approval; driving licence (an undocumented attribute)',
    status: 'review_requested',
    dates: {
      waitingDate: 60 * DAY,
      inreviewDate: 60 * DAY - 40,
      approvedDate: 59 * DAY,
      reviewRequestedDate: 1 * DAY + 2 * HOUR,
    },
    submitCount: 1,
    givenName: 'Siobhán',
    familyName: 'Ní Bhriain',
    latinName: 'Siobhan Ni Bhriain',
    email: 'siobhan.nibhriain@example.ie',
    dob: '09/30/1985',
    address: {
      address: '14 Harcourt Street',
      extraInfo: 'Apartment 3',
      city: 'Dublin',
      state: 'County Dublin',
      postalCode: 'D02 XY45',
      country: 'IRL',
    },
    phone: { countryCode: 'IRL', countryCode2: 'ie', phoneNumber: '+353871234567', number: '871234567' },
    pictures: { selfie: 'jpeg', driving_license: 'jpeg' },
    customFields: { riskLevel: 'medium', reviewReason: 'Address changed' },
    certs: [{ provider: 'onfido', result: 'clear' }],
  },
  {
    refId: 'legacy-2019-0031',
    recordId: '65f1c2a9e4b0d3a1f0c9b808',
    blockPassID: '5e8f1a2b3c4d5e6f7a8b9c08',
    summary: 'Archived: identity data removed, status history and certificates kept',
    status: 'approved',
    isArchived: true,
    dates: { waitingDate: 400 * DAY, inreviewDate: 400 * DAY - 600, approvedDate: 399 * DAY },
    submitCount: 1,
    latinName: 'Lars Overgaard',
    pictures: {},
    customFields: { riskLevel: 'low', customerTier: 'silver' },
    certs: [
      { provider: 'onfido', result: 'clear' },
      { provider: 'complyadvantage', result: 'no_match' },
    ],
  },
  {
    refId: 'f47ac10b-58cc-4372-a567-0e02b2c3d479',
    recordId: '65f1c2a9e4b0d3a1f0c9b809',
    blockPassID: '5e8f1a2b3c4d5e6f7a8b9c09',
    summary: 'Approved with a key that archives after extract (willArchiveAtDate)',
    status: 'approved',
    dates: { waitingDate: 10 * DAY, inreviewDate: 10 * DAY - 30, approvedDate: 10 * DAY - 2 * HOUR },
    archivesIn: 20 * DAY,
    submitCount: 1,
    givenName: 'Minh Khai',
    familyName: 'Nguyễn Thị',
    latinName: 'Nguyen Thi Minh Khai',
    email: 'minhkhai.nguyen@example.vn',
    dob: '01/08/2001',
    address: {
      address: '25 Lý Thường Kiệt',
      extraInfo: 'Phường Trần Hưng Đạo',
      city: 'Hà Nội',
      state: '',
      postalCode: '100000',
      country: 'VNM',
    },
    phone: { countryCode: 'VNM', countryCode2: 'vn', phoneNumber: '+84912345678', number: '912345678' },
    pictures: { selfie: 'jpeg', passport: 'jpeg', proof_of_address: 'jpeg' },
    customFields: { riskLevel: 'low' },
    certs: [{ provider: 'onfido', result: 'clear' }],
  },
  {
    recordId: '65f1c2a9e4b0d3a1f0c9b810',
    blockPassID: '5e8f1a2b3c4d5e6f7a8b9c10',
    summary: 'No refId assigned: found by recordId only',
    status: 'inreview',
    dates: { waitingDate: 3 * DAY, inreviewDate: 2 * DAY },
    submitCount: 3,
    givenName: 'Kwame',
    familyName: 'Mensah',
    latinName: 'Kwame Mensah',
    email: 'kwame.mensah@example.com.gh',
    dob: '1987-06-15',
    address: {
      address: '7 Independence Avenue',
      extraInfo: '',
      city: 'Accra',
      state: 'Greater Accra',
      postalCode: 'GA-110',
      country: 'GHA',
    },
    phone: { countryCode: 'GHA', countryCode2: 'gh', phoneNumber: '+233241234567', number: '241234567' },
    pictures: { selfie: 'jpeg', passport: 'png' },
    certs: [{ provider: 'complyadvantage', result: 'no_match' }],
  },
  {
    refId: 'hu-2026-0117',
    recordId: '65f1c2a9e4b0d3a1f0c9b811',
    blockPassID: '5e8f1a2b3c4d5e6f7a8b9c11',
    summary: 'In review: a document check to consider, a sideways national ID, a phone photo with EXIF orientation',
    status: 'inreview',
    dates: { waitingDate: 6 * HOUR, inreviewDate: 5 * HOUR },
    submitCount: 1,
    givenName: 'Eszter',
    familyName: 'Kovács',
    latinName: 'Kovacs Eszter',
    email: 'eszter.kovacs@example.hu',
    dob: '03/09/1992',
    address: { address: 'Andrássy út 61', extraInfo: '2. emelet 4', city: 'Budapest', state: '', postalCode: '1062', country: 'HUN' },
    phone: { countryCode: 'HUN', countryCode2: 'hu', phoneNumber: '+36301234567', number: '301234567' },
    pictures: {
      selfie: 'jpeg',
      passport: { format: 'jpeg', orientation: 'exif' },
      national_id: { format: 'jpeg', orientation: 'sideways' },
    },
    customFields: { riskLevel: 'medium', reviewNote: 'Document check flagged the national ID photo: compare it with the selfie.' },
    certs: [
      { provider: 'onfido', result: 'consider' },
      { provider: 'complyadvantage', result: 'no_match' },
    ],
  },
];

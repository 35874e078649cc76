import { HOUR, type Person } from './person.ts';

/** Extra candidates in large-image mode, so a benchmark can open dozens of different large records. */
export const BENCH_CANDIDATE_COUNT = 32;

export function benchPeople(): Person[] {
  return Array.from({ length: BENCH_CANDIDATE_COUNT }, (_, index) => {
    const n = String(index + 1).padStart(2, '0');
    return {
      refId: `bench-${n}`,
      recordId: `65f1c2a9e4b0d3a1f0c9c1${n}`,
      blockPassID: `5e8f1a2b3c4d5e6f7a8b9d${n}`,
      summary: `Benchmark candidate ${n}: four phone-camera pictures`,
      status: index % 3 === 0 ? 'approved' : index % 3 === 1 ? 'inreview' : 'waiting',
      dates: { waitingDate: (index + 2) * HOUR, inreviewDate: (index + 1) * HOUR },
      submitCount: 1,
      givenName: 'Bench',
      familyName: `Candidate ${n}`,
      latinName: `Bench Candidate ${n}`,
      email: `bench.${n}@example.org`,
      dob: '03/15/1990',
      address: { address: `${index + 1} Test Street`, extraInfo: '', city: 'Lyon', state: '', postalCode: '69001', country: 'FRA' },
      phone: { countryCode: 'FRA', countryCode2: 'fr', phoneNumber: '+33612345678', number: '612345678' },
      pictures: { selfie: 'jpeg', passport: 'jpeg', proof_of_address: 'jpeg', selfie_national_id: 'jpeg' },
      customFields: { riskLevel: 'low' },
      certs: [{ provider: 'onfido', result: 'clear' }],
    };
  });
}

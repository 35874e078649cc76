import type { CandidateRecord } from '../../kyc/contract/schema.ts';
import type { SandboxCandidate } from './candidates.ts';

/**
 * A candidate whose every field is hostile, present only when SANDBOX_HOSTILE=1 (the browser suite
 * turns it on). Each script payload would set `window.__pwned`; the suite proves none ever runs.
 */
export const HOSTILE_REF_ID = 'hostile-<script>window.__pwned=1</script>-"\'>&amp;\u202Egpj.exe';

export const PAYLOADS = [
  '<script>window.__pwned=1</script>',
  '<img src=x onerror="window.__pwned=1">',
  '"><svg onload=window.__pwned=1>',
  'javascript:window.__pwned=1',
  '&lt;b&gt;entities&amp;&#x3C;script&#x3E;',
  '\u202Eevil right-to-left override\u202C',
  '{{constructor.constructor("window.__pwned=1")()}}',
] as const;

const HUGE = 'W'.repeat(100_000);
const mix = (index: number) => PAYLOADS[index % PAYLOADS.length]!;
const base64 = (text: string | Buffer) => Buffer.from(text).toString('base64');

function randomBytes(length: number, seed: number): Buffer {
  const bytes = Buffer.alloc(length);
  let state = seed;
  for (let i = 0; i < length; i++) {
    state = (state * 1103515245 + 12345) >>> 0;
    bytes[i] = state >>> 24;
  }
  return bytes;
}

export function hostileCandidate(): SandboxCandidate {
  const now = Date.now();
  const record: CandidateRecord = {
    status: '<img src=x onerror="window.__pwned=1">',
    refId: HOSTILE_REF_ID,
    recordId: 'hostile0000000000000000',
    isArchived: false,
    blockPassID: `${mix(0)}${'B'.repeat(5_000)}`,
    submitCount: 7,
    waitingDate: new Date(now - 3_600_000).toISOString(),
    inreviewDate: new Date(now - 1_800_000).toISOString(),
    customFields: {
      [mix(0)]: mix(1),
      [mix(2)]: HUGE,
      [`${HUGE.slice(0, 2_000)}key`]: mix(3),
      [mix(4)]: mix(5),
      [mix(6)]: 'x',
    },
    identities: {
      given_name: { type: 'string', value: mix(0) },
      family_name: { type: 'string', value: `${mix(5)}${HUGE}` },
      email: { type: 'string', value: `"><img src=x onerror=window.__pwned=1>${HUGE.slice(0, 500)}@example.com` },
      dob: { type: 'string', value: mix(1) },
      address: {
        type: 'string',
        value: JSON.stringify({
          address: mix(0),
          extraInfo: mix(1),
          city: `${mix(2)}${HUGE}`,
          state: mix(4),
          postalCode: mix(5),
          country: '<script>',
        }),
      },
      phone: {
        type: 'string',
        value: JSON.stringify({ countryCode: mix(0), countryCode2: '"><', phoneNumber: mix(3), number: mix(1) }),
      },
      passport: {
        type: 'base64',
        value: base64('<svg xmlns="http://www.w3.org/2000/svg" onload="window.__pwned=1"><script>window.__pwned=1</script></svg>'),
      },
      selfie: { type: 'base64', value: base64('<!DOCTYPE html><html><body><script>window.__pwned=1</script></body></html>') },
      proof_of_address: { type: 'base64', value: base64('%PDF-1.7\n1 0 obj << /JS (app.alert(1)) >> endobj\n%%EOF') },
      selfie_national_id: { type: 'base64', value: base64(randomBytes(4096, 42)) },
      driving_license: { type: 'base64', value: '!!!not base64 <script>window.__pwned=1</script>' },
      [mix(1)]: { type: mix(0), value: `${mix(2)}${HUGE}` },
      nationality: { type: 'string', value: mix(3) },
    },
    certs: {
      [`${mix(1)}-service-cert`]: JSON.stringify({ '@context': [mix(0)], Claim: { reviewBody: { result: mix(2) } }, note: HUGE }),
      'onfido-service-cert': `{"broken": "</pre><script>window.__pwned=1</script>",, ${HUGE}`,
    },
  };
  return { record, summary: 'Hostile content in every field (only when SANDBOX_HOSTILE=1)' };
}

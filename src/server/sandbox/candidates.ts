import type { CandidateRecord, IdentityAttribute } from '../../kyc/contract/schema.ts';
import { claimResults } from './certificate-shapes.ts';
import { certificateSlug, makeBrokenCertificate, makeCertificate, type CertificateSpec } from './certificates.ts';
import { drawPicture, LARGE_SIZE, SAMPLE_SIZE, type PictureKind, type PictureSpec } from './images.ts';
import { benchPeople } from './bench-people.ts';
import { PEOPLE } from './people.ts';
import type { Person } from './person.ts';

/** A sandbox candidate: the full-level record plus a one-line summary the UI offers as an example. */
export interface SandboxCandidate {
  record: CandidateRecord;
  summary: string;
  /** In the applicants list only, not offered as a sample on the home page (the queue's many extras). */
  listOnly?: boolean;
  /** Its full-level answer has no recordId (status level and list have it): the published full example's form. */
  fullOmitsRecordId?: boolean;
}

export interface SampleOptions {
  /** Dates are relative to this instant, so "3 days ago" stays true whenever the sandbox starts. */
  now: Date;
  /** Phone-camera sized pictures (about 3 MB each, four per candidate) for benchmarks, and 32 more candidates. */
  largeImages?: boolean;
  /** false: identities without their pictures, for callers that need no JPEGs. */
  pictures?: boolean;
}

const LARGE_PICTURES: PictureKind[] = ['selfie', 'passport', 'proof_of_address', 'selfie_national_id'];

export function sampleCandidates(options: SampleOptions): Promise<SandboxCandidate[]> {
  return buildCandidates(options.largeImages ? [...PEOPLE, ...benchPeople()] : PEOPLE, options);
}

/** Records from people: dates relative to `options.now`, pictures drawn, certificates made. */
export async function buildCandidates(people: Person[], options: SampleOptions): Promise<SandboxCandidate[]> {
  const pictures = await Promise.all(people.map((person) => picturesOf(person, options)));
  return people.map((person, index) => candidateOf(person, options, pictures[index]!));
}

/** One person's record, with the pictures already drawn (none for an archived one, whose identities are gone). */
function candidateOf(person: Person, options: SampleOptions, pictures: Record<string, IdentityAttribute>): SandboxCandidate {
  const nowMs = options.now.getTime();
  const at = (secondsBefore: number) => new Date(nowMs - secondsBefore * 1000).toISOString();
  const omitted = new Set(person.omit);
  const record: CandidateRecord = {
    status: person.status,
    ...(person.refId !== undefined ? { refId: person.refId } : {}),
    recordId: person.recordId,
    ...(omitted.has('isArchived') ? {} : { isArchived: person.isArchived ?? false }),
    ...(omitted.has('blockPassID') ? {} : { blockPassID: person.blockPassID }),
  };
  for (const [field, secondsBefore] of Object.entries(person.dates)) record[field] = at(secondsBefore);
  if (person.submitCount !== undefined) record.submitCount = person.submitCount;
  if (person.archivesIn !== undefined) record.willArchiveAtDate = at(-person.archivesIn);
  if (person.customFields) record.customFields = person.customFields;
  if (!person.isArchived) record.identities = { ...textIdentitiesOf(person), ...pictures };
  if (person.certs) record.certs = certificatesOf(person, at(Math.min(...Object.values(person.dates)) - 60));
  return { record, summary: person.summary, ...(person.fullOmit?.includes('recordId') ? { fullOmitsRecordId: true } : {}) };
}

/**
 * The published full example's form (fullOmitsRecordId): the full-level answer, to any key but a
 * status-only one, without the recordId its status level and the list have. `scoped` is the record as the
 * key's scope allows.
 */
export function fullLevelForm(candidates: readonly SandboxCandidate[]) {
  const without = new Set(
    candidates.flatMap(({ record, fullOmitsRecordId }) => (fullOmitsRecordId && record.recordId ? [record.recordId] : [])),
  );
  return (scoped: CandidateRecord, scope: 'status' | 'identity' | 'full'): CandidateRecord => {
    if (scope === 'status' || !scoped.recordId || !without.has(scoped.recordId)) return scoped;
    const { recordId: _omitted, ...rest } = scoped;
    return rest;
  };
}

/** One sandbox certificate as the service sends it: its slug and its text (JSON-LD, or not even JSON). */
export interface SandboxCertificate {
  /** The candidate's refId, or its recordId when it has none. */
  candidate: string;
  slug: string;
  raw: string;
}

/** Every certificate of the sample candidates, built without drawing a picture: for tests over all of them. */
export function sandboxCertificates(now = new Date()): SandboxCertificate[] {
  return PEOPLE.map((person) => candidateOf(person, { now }, {})).flatMap(({ record }) =>
    Object.entries(record.certs ?? {}).map(([slug, raw]) => ({ candidate: (record.refId ?? record.recordId)!, slug, raw })),
  );
}

function certificatesOf(person: Person, issuedAt: string): Record<string, string> {
  return Object.fromEntries(
    person.certs!.map((cert) => {
      const spec = certificateSpec(person, cert, issuedAt);
      return [certificateSlug(cert.provider), cert.broken ? makeBrokenCertificate(spec) : makeCertificate(spec)];
    }),
  );
}

/**
 * Pictures are drawn once per process and shared, as base64: the same spec always gives the same bytes,
 * and every sandbox a test file starts would draw them again (the large ones take a second each).
 */
const drawn = new Map<string, Promise<string>>();

function pictureBase64(spec: PictureSpec): Promise<string> {
  const key = JSON.stringify(spec);
  let value = drawn.get(key);
  if (value === undefined) {
    value = drawPicture(spec).then((bytes) => bytes.toString('base64'));
    drawn.set(key, value);
  }
  return value;
}

function textIdentitiesOf(person: Person): Record<string, IdentityAttribute> {
  const identities: Record<string, IdentityAttribute> = {};
  const text = (value: string | undefined) => (value === undefined ? undefined : { type: 'string', value });
  const entries: Array<[string, IdentityAttribute | undefined]> = [
    ['email', text(person.email)],
    ['given_name', text(person.givenName)],
    ['family_name', text(person.familyName)],
    ['dob', text(person.dob)],
    ['address', text(person.address && JSON.stringify(person.address))],
    ['phone', text(person.phone && JSON.stringify(person.phone))],
  ];
  for (const [name, attribute] of entries) if (attribute) identities[name] = attribute;
  return identities;
}

/** A person's pictures, drawn at once (sharp encodes them on libvips' threads, side by side). */
async function picturesOf(person: Person, options: SampleOptions): Promise<Record<string, IdentityAttribute>> {
  if (options.pictures === false || person.isArchived) return {};
  const lines = [person.latinName, ...(person.dob ? [`DOB ${person.dob}`] : []), `REF ${person.recordId.slice(-6)}`];
  const specs: Array<[string, PictureSpec]> =
    options.largeImages && Object.keys(person.pictures).length > 0
      ? LARGE_PICTURES.map((kind) => [kind, { kind, lines: ['Benchmark candidate'], format: 'jpeg', ...LARGE_SIZE, cameraNoise: true }])
      : (Object.entries(person.pictures) as Array<[PictureKind, NonNullable<Person['pictures'][PictureKind]>]>).map(([kind, how]) => [
          kind,
          { kind, lines, ...(typeof how === 'string' ? { format: how } : how), ...SAMPLE_SIZE },
        ]);
  const values = await Promise.all(specs.map(([, spec]) => pictureBase64(spec)));
  return Object.fromEntries(specs.map(([kind], index) => [kind, { type: 'base64', value: values[index]! }]));
}

function certificateSpec(person: Person, cert: NonNullable<Person['certs']>[number], issuedAt: string): CertificateSpec {
  const fields: Record<string, string> = {};
  if (person.givenName) fields.given_name = person.givenName;
  if (person.familyName) fields.family_name = person.familyName;
  if (person.dob) fields.dob = person.dob;
  const { provider, result, shape = 'review-body' } = cert;
  const claim = claimResults({ provider, result, shape, seed: person.recordId, issuedAt });
  return { provider, issuedAt, fields, reviewBody: claim.reviewBody, customFields: claim.customFields ?? person.customFields };
}

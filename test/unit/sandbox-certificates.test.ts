import { describe, expect, it } from 'vitest';
import { sampleCandidates, sandboxCertificates, type SandboxCertificate } from '../../src/server/sandbox/candidates.ts';
import { PEOPLE } from '../../src/server/sandbox/people.ts';

/**
 * The sandbox shows certificates of every shape a viewer must read alike (issue 19): results in an
 * object `reviewBody`, in `_customFields`, and in a `reviewBody` string holding an array of checks.
 * Built without pictures, so that this stays fast.
 */
const now = new Date('2026-11-20T12:00:00.000Z');
const certificates = sandboxCertificates(now);
const candidates = await sampleCandidates({ now, pictures: false });
const records = candidates.map((c) => c.record);

type Doc = { Claim: { reviewBody?: unknown; _customFields?: Record<string, unknown> } } & Record<string, unknown>;
const parsed = certificates.flatMap((cert) => {
  try {
    return [{ ...cert, doc: JSON.parse(cert.raw) as Doc }];
  } catch {
    return [];
  }
});
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const recordOf = (cert: SandboxCertificate) => records.find((r) => (r.refId ?? r.recordId) === cert.candidate)!;
const RESULT_LIKE = /^(result|match_?status|outcome|decision|verdict)$/i;
/** Every key below a value, at any depth. */
const keysBelow = (value: unknown): string[] =>
  Array.isArray(value)
    ? value.flatMap(keysBelow)
    : isObject(value)
      ? Object.entries(value).flatMap(([key, item]) => [key, ...keysBelow(item)])
      : [];

describe('sandboxCertificates()', () => {
  it("gives every sample candidate's certificates, by candidate and slug, as the sandbox serves them", () => {
    const expected = PEOPLE.flatMap((person) =>
      (person.certs ?? []).map((cert) => `${person.refId ?? person.recordId} ${cert.provider}-service-cert`),
    );
    expect(certificates.map((cert) => `${cert.candidate} ${cert.slug}`)).toEqual(expected);
    for (const cert of certificates) expect(recordOf(cert).certs![cert.slug]).toBe(cert.raw);
  });

  it('still includes the certificate that is not valid JSON', () => {
    expect(certificates.length - parsed.length).toBeGreaterThanOrEqual(1);
  });

  it('wraps every readable certificate as documented: signatures with creator, created and type, issuer, hashes', () => {
    for (const { doc } of parsed) {
      expect(doc['@context']).toEqual(expect.arrayContaining(['https://w3id.org/security/v1']));
      expect(doc.signature).toHaveLength(2);
      for (const signature of doc.signature as Array<Record<string, unknown>>) {
        expect(signature).toMatchObject({ type: 'EcdsaKoblitzSignature2016', creator: expect.stringMatching(/^did:/) });
        expect(Date.parse(signature.created as string)).not.toBeNaN();
      }
      expect(doc.Organization).toMatchObject({ legalName: expect.any(String), identifier: expect.any(String) });
      expect(doc.Entity).toMatchObject({ rootHash: expect.stringMatching(/^[0-9a-f]{64}$/), type: 'Person' });
      expect(Object.keys(doc.Claim).sort()).toEqual(['_customFields', 'issueDate', 'reviewBody']);
    }
  });
});

describe('sandbox certificate shapes', () => {
  it('has results in an object reviewBody (the first shape)', () => {
    const inBody = parsed.filter(
      ({ doc }) => isObject(doc.Claim.reviewBody) && keysBelow(doc.Claim.reviewBody).some((k) => RESULT_LIKE.test(k)),
    );
    expect(inBody.map(({ doc }) => doc.Claim.reviewBody)).toContainEqual(expect.objectContaining({ result: 'clear' }));
    expect(inBody.map(({ doc }) => doc.Claim.reviewBody)).toContainEqual(expect.objectContaining({ matchStatus: 'no_match' }));
  });

  it("has a blocked candidate's AML potential match in _customFields only, its reviewBody holding no result", () => {
    const inCustomFields = parsed.filter(({ doc }) => doc.Claim._customFields?.result === 'potential_match');
    expect(inCustomFields).toHaveLength(1);
    const [{ doc, slug, candidate }] = inCustomFields as [(typeof parsed)[number]];
    expect(slug).toBe('complyadvantage-service-cert');
    expect(doc.Organization).toMatchObject({ legalName: 'ComplyAdvantage Ltd' });
    expect(doc.Claim._customFields).toMatchObject({
      search_id: expect.any(Number),
      total_hits: expect.any(Number),
      match_types: expect.arrayContaining(['name_exact']),
      risk_level: 'high',
      fuzziness: 0.6,
    });
    expect(keysBelow(doc.Claim.reviewBody).filter((key) => RESULT_LIKE.test(key))).toEqual([]);
    expect(JSON.stringify(doc.Claim.reviewBody)).not.toContain('match');
    expect(recordOf({ candidate, slug, raw: '' }).status).toBe('blocked');
  });

  it('has a reviewBody that is a string holding JSON: an array of checks, each with a result, one to consider', () => {
    const asText = parsed.filter(({ doc }) => typeof doc.Claim.reviewBody === 'string');
    expect(asText.length).toBeGreaterThanOrEqual(1);
    const checks = JSON.parse(asText[0]!.doc.Claim.reviewBody as string) as Array<Record<string, unknown>>;
    expect(Array.isArray(checks)).toBe(true);
    expect(checks.map((check) => [check.name, check.result])).toEqual([
      ['document', 'clear'],
      ['facial_similarity_photo', 'consider'],
    ]);
    for (const check of checks) expect(isObject(check.breakdown)).toBe(true);
  });
});

describe('the blocked candidate with the potential match in _customFields', () => {
  const certHolder = parsed.find(({ doc }) => doc.Claim._customFields?.result === 'potential_match')!;
  const record = recordOf(certHolder);
  const person = PEOPLE.find((p) => p.recordId === record.recordId)!;

  it('is blocked, with a refId and a recordId like the others, and offered as a sample', () => {
    expect(record.status).toBe('blocked');
    expect(record.blockedDate).toBeDefined();
    expect(record.refId).toBeDefined();
    expect(record.recordId).toMatch(/^65f1c2a9e4b0d3a1f0c9b8\d\d$/);
    expect(new Set(records.map((r) => r.recordId)).size).toBe(records.length);
    expect(candidates.find((c) => c.record === record)).toMatchObject({ summary: expect.stringContaining('_customFields') });
    expect(candidates.find((c) => c.record === record)!.listOnly).toBeUndefined();
  });

  it('has a full identity and pictures, so that the page has pictures for its chip to sit above', () => {
    expect(Object.keys(record.identities ?? {})).toEqual(
      expect.arrayContaining(['given_name', 'family_name', 'email', 'dob', 'address', 'phone']),
    );
    expect(Object.keys(person.pictures).length).toBeGreaterThanOrEqual(2);
  });

  it('leaves the pictures out when built without them, and only them', () => {
    const attributes = records.flatMap((r) => Object.values(r.identities ?? {}));
    expect(attributes.filter((attribute) => attribute.type === 'base64')).toEqual([]);
    const texts = PEOPLE.flatMap((p) => [p.email, p.givenName, p.familyName, p.dob].filter((value) => value !== undefined));
    expect(attributes.map((attribute) => attribute.value)).toEqual(expect.arrayContaining(texts));
  });
});

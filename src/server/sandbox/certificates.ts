import { createHash } from 'node:crypto';

/**
 * Certificates shaped like the documented Blockpass JSON-LD credential (server spec v1.4):
 * `@context`, an issuer signature and a countersignature, `Claim`, `Organization` and `Entity`.
 */
export interface CertificateSpec {
  provider: Provider;
  issuedAt: string;
  fields: Record<string, string>;
  /** An object, or a string holding JSON, as some providers send it. */
  reviewBody: Record<string, unknown> | string;
  customFields?: Record<string, unknown>;
}

const ORGANIZATIONS = {
  onfido: { legalName: 'Onfido Ltd', url: 'https://onfido.com', identifier: 'onfido-service' },
  complyadvantage: {
    legalName: 'ComplyAdvantage Ltd',
    url: 'https://complyadvantage.com',
    identifier: 'complyadvantage-service',
  },
} as const;

export type Provider = 'onfido' | 'complyadvantage';

export const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const fakeSignature = (seed: string) => Buffer.from(sha256(seed) + sha256(`${seed}:2`), 'hex').toString('base64');

export function certificateSlug(provider: CertificateSpec['provider']): string {
  return `${provider}-service-cert`;
}

export function makeCertificate(spec: CertificateSpec): string {
  const organization = ORGANIZATIONS[spec.provider];
  const entity: Record<string, string> = {};
  for (const [name, value] of Object.entries(spec.fields)) entity[name] = sha256(`${name}:${value}`);
  const rootHash = sha256(Object.values(entity).join(''));
  const document = {
    '@context': ['https://w3id.org/identity/v1', 'https://w3id.org/security/v1', 'https://schema.org'],
    signature: [
      {
        type: 'EcdsaKoblitzSignature2016',
        creator: `did:${organization.identifier}#key-1`,
        created: spec.issuedAt,
        signatureValue: fakeSignature(`${rootHash}:issuer`),
      },
      {
        type: 'EcdsaKoblitzSignature2016',
        creator: 'did:blockpass#countersign-1',
        created: spec.issuedAt,
        nonce: sha256(`${rootHash}:nonce`).slice(0, 16),
        signatureValue: fakeSignature(`${rootHash}:countersign`),
      },
    ],
    Claim: {
      _customFields: spec.customFields ?? {},
      issueDate: spec.issuedAt,
      reviewBody: spec.reviewBody,
    },
    Organization: {
      url: organization.url,
      logo: `${organization.url}/logo.png`,
      legalName: organization.legalName,
      identifier: organization.identifier,
    },
    Entity: { ...entity, rootHash, type: 'Person' },
  };
  return JSON.stringify(document);
}

/** A truncated certificate with the `,,` the public examples contain: not valid JSON. */
export function makeBrokenCertificate(spec: CertificateSpec): string {
  const valid = makeCertificate(spec);
  return `${valid.slice(0, valid.indexOf('"Claim"'))},"Claim":{"issueDate":"${spec.issuedAt}",,"reviewBody":`;
}

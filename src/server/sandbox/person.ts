import type { Phone, PostalAddress } from '../../kyc/contract/identity-values.ts';
import type { CertificateShape, ProviderResult } from './certificate-shapes.ts';
import type { Provider } from './certificates.ts';
import type { PictureFormat, PictureKind, PictureOrientation } from './images.ts';

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
  /** Fields the record leaves out, as some of the service's published answers do (published-people.ts). */
  omit?: ReadonlyArray<'isArchived' | 'blockPassID'>;
  /** Fields its full-level answer leaves out while its status level and the list have them, as the published full example does. */
  fullOmit?: ReadonlyArray<'recordId'>;
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
  /** `result` is the certificate's overall (worst) result; `shape` where its claim keeps it (default `review-body`). */
  certs?: Array<{ provider: Provider; result: ProviderResult; shape?: CertificateShape; broken?: boolean }>;
}

/** Offsets in seconds. */
export const MINUTE = 60;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

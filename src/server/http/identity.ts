import type { Role } from '../../kyc/contract/api.ts';

/**
 * Who is asking, once a sign-in mode has said so. A file of its own, below everything that reads it:
 * the route table and every mode need it, and it needs none of them.
 */
export interface Identity {
  user: string;
  role: Role;
  /** The environments this user may use (by name); undefined means all of them. */
  environments?: readonly string[];
}

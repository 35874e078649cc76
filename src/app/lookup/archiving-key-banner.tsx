import type { ArchivingKey } from '../../kyc/contract/api.ts';
import { Card } from '../ui/card.tsx';
import { TimeStamp } from '../ui/time-stamp.tsx';

/** For compliance users: this server's key deletes what it looks up, and what the server does about it. */
export function ArchivingKeyBanner({ archivingKey }: { archivingKey: ArchivingKey }) {
  const detected = new Date(archivingKey.detectedAt);
  return (
    <Card as="section" tone="alert" aria-labelledby="archiving-key-heading" data-testid="archiving-key-banner">
      <h2 id="archiving-key-heading" className="text-lg font-semibold">
        <span aria-hidden="true">⚠ </span>This server's API key archives identity data after each full lookup
      </h2>
      <p className="mt-1 text-sm">
        The KYC service deletes a candidate's identity data seconds after it is looked up with this key ("archive after extract"; seen at{' '}
        <TimeStamp date={detected} />
        ).{' '}
        {archivingKey.accepted
          ? 'The administrator has accepted this ("archiveOnExtract": "accept"): every candidate opened here loses its identity data shortly after.'
          : 'Full lookups are refused until an administrator configures a key without "archive after extract" (or sets "archiveOnExtract": "accept" for this environment). The applicants list and status-level lookups still work.'}
      </p>
      {archivingKey.supportUsesFullKey && (
        <p className="mt-2 text-sm font-semibold">
          Support users look candidates up with this key too (and batches), since no status-level key is configured: support users need a
          status-level key (statusApiKeyEnv or statusApiKeyFile for this environment in CONFIG_FILE, or KYC_API_KEY_STATUS with the quick
          start), a key of status and metadata only, which deletes nothing.
        </p>
      )}
    </Card>
  );
}

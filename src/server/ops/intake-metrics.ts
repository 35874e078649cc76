import client from 'prom-client';

/**
 * The queue of accepted webhook deliveries (issue 32): what was tried again, and what was given up. Typed
 * here rather than as a Pick of metrics.ts's Metrics, which spreads them in: the two files would import
 * each other.
 */
export function intakeMetrics(registers: client.Registry[]): {
  webhookIntakeRetries: client.Counter<'reason'>;
  webhookIntakeDropped: client.Counter<'reason'>;
} {
  return {
    webhookIntakeRetries: new client.Counter({
      name: 'candidate_lookup_webhook_intake_retries_total',
      help: "Accepted webhook deliveries tried again, by reason: unconfirmed (the service's check failed for a passing reason), not_asked (its check could not be sent: this server's slots busy; the delivery stays queued), service_wait (its check waited for the service's 429 wait to end, no try spent) or failed (publishing or Redis failed: the delivery stays queued).",
      labelNames: ['reason'],
      registers,
    }),
    webhookIntakeDropped: new client.Counter({
      name: 'candidate_lookup_webhook_intake_dropped_total',
      help: 'Accepted webhook deliveries given up without reaching the pages, by reason: unconfirmed (the check failed on every retry), withheld (its check not sent: without a status-level key the full key is not used until a lookup has shown it keeps identity data, nor while it is found to archive after extract), failed (every try failed), unreadable (a queued entry that is not a delivery), trimmed (past the queue stream bound before it was processed).',
      labelNames: ['reason'],
      registers,
    }),
  };
}

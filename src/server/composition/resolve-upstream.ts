import { randomBytes } from 'node:crypto';
import { SANDBOX_DASHBOARD_URL, type SampleCandidate } from '../../kyc/contract/api.ts';
import { WEBHOOK_PATH } from '../../kyc/contract/live-events.ts';
import type { ApiEnvironment } from '../lookup/served-environment.ts';
import { candidateName } from '../../kyc/contract/candidate-name.ts';
import type { Config, EnvironmentConfig, RemoteUpstream } from '../config/config.ts';
import { defaultDashboardUrl } from '../config/config-fields.ts';
import type { SandboxCandidate } from '../sandbox/candidates.ts';
import { sandboxOptions } from '../sandbox/options.ts';
import type { RunningSandbox } from '../sandbox/sandbox.ts';
import type { SetStatus } from '../sandbox/test-controls.ts';

/** Where lookups go: each configured service, or the embedded sandbox started in this process. */
export interface ResolvedUpstream {
  environments: ApiEnvironment[];
  /** Lines to print at start; loud in sandbox mode. */
  banner: string[];
  /**
   * Told this server's address once it listens: in sandbox mode the embedded sandbox then sends its
   * webhooks to this server's own receiver, so pages update live on a fresh machine.
   */
  listening?(origin: string): void;
  close(): Promise<void>;
}

/** Sample links for the home page; the queue's many extras are left out. */
export function samplesOf(candidates: SandboxCandidate[]): SampleCandidate[] {
  return candidates
    .filter((candidate) => !candidate.listOnly)
    .map(({ record, summary }) => {
      const name = candidateName(record);
      return {
        kind: record.refId ? 'refId' : 'recordId',
        id: (record.refId || record.recordId)!,
        status: record.status,
        ...(name ? { name } : {}),
        summary,
      };
    });
}

/**
 * The samples of a sandbox whose decisions are taken here (Simulate): each card keeps to its candidate's
 * status as the sandbox now has it, not the status it started with.
 */
export function simulatedSamples(sandbox: Pick<RunningSandbox, 'candidates' | 'setStatus'>): {
  samples: SampleCandidate[];
  simulate: SetStatus;
} {
  const started = samplesOf(sandbox.candidates);
  const samples = [...started];
  const simulate: SetStatus = (kind, id, status) => {
    if (!sandbox.setStatus(kind, id, status)) return false;
    const record = sandbox.candidates.find((candidate) => candidate.record[kind] === id)?.record;
    const at = record ? samples.findIndex((sample) => sample.id === (record.refId || record.recordId)) : -1;
    if (at >= 0) samples[at] = simulatedSample(started[at]!, status);
    return true;
  };
  return { samples, simulate };
}

/** A sample's summary describes the status it started with: after a decision here, the card says so. */
function simulatedSample(start: SampleCandidate, status: string): SampleCandidate {
  if (status === start.status) return start;
  return { ...start, status, summary: `Status set here by Simulate. It started as: ${start.summary}` };
}

export async function resolveUpstream(config: Config): Promise<ResolvedUpstream> {
  const remote = config.environments.flatMap((environment) => (environment.upstream.kind === 'remote' ? [environment] : []));
  if (remote.length === config.environments.length) {
    return {
      environments: remote.map((environment) => {
        const { kind: _remote, ...target } = environment.upstream as RemoteUpstream;
        return {
          target,
          info: {
            name: environment.name,
            label: environment.label,
            ...(environment.tone ? { tone: environment.tone } : {}),
            clientId: target.clientId,
            upstream: 'remote',
            ...dashboardOf(environment.dashboardUrl ?? defaultDashboardUrl(target.baseUrl, target.clientId)),
          },
          ...settingsOf(environment),
        };
      }),
      banner: remote.map(
        (environment, index) =>
          `Upstream${remote.length > 1 ? ` ${index === 0 ? '(default) ' : ''}"${environment.name}"` : ''}: ${(environment.upstream as RemoteUpstream).baseUrl} (client id ${(environment.upstream as RemoteUpstream).clientId})`,
      ),
      close: async () => {},
    };
  }
  const environment = config.environments[0]!;
  // The sandbox signs with the configured secret, or one made for this start: it is its own service.
  const webhookSecret = environment.webhookSecret ?? randomBytes(32).toString('hex');
  let receiver: string | undefined;
  const { startSandbox } = await import('../sandbox/sandbox.ts');
  const sandbox = await startSandbox({
    ...(await sandboxOptions(config.sandbox)),
    testControls: config.sandbox.testControls,
    webhook: { url: () => receiver, secret: webhookSecret },
  });
  return {
    environments: [
      {
        target: { baseUrl: sandbox.url, clientId: sandbox.clientId, apiKey: sandbox.keys.full, statusApiKey: sandbox.keys.status },
        // The sandbox has no console: its link opens the app's page that says where a real service's is.
        info: {
          name: environment.name,
          label: environment.label,
          clientId: sandbox.clientId,
          upstream: 'sandbox',
          dashboardUrl: SANDBOX_DASHBOARD_URL,
        },
        ...simulatedSamples(sandbox),
        webhookSecret,
        ...(environment.supportFields ? { supportFields: environment.supportFields } : {}),
      },
    ],
    banner: sandboxBanner(config.sandbox, sandbox.url, sandbox.candidates.length),
    listening: (origin) => {
      receiver = new URL(WEBHOOK_PATH, origin).href;
    },
    close: () => sandbox.close(),
  };
}

const dashboardOf = (url: string | undefined) => (url ? { dashboardUrl: url } : {});

/** What an environment of CONFIG_FILE says for itself, over the server's display defaults. */
function settingsOf(
  environment: EnvironmentConfig,
): Pick<
  ApiEnvironment,
  'summaryFields' | 'replyTemplates' | 'archiveOnExtract' | 'webhookSecret' | 'supportFields' | 'queueIndexMax' | 'queueSlaHours'
> {
  return {
    ...(environment.queueIndexMax === undefined ? {} : { queueIndexMax: environment.queueIndexMax }),
    ...(environment.queueSlaHours === undefined ? {} : { queueSlaHours: environment.queueSlaHours }),
    ...(environment.webhookSecret ? { webhookSecret: environment.webhookSecret } : {}),
    ...(environment.summaryFields ? { summaryFields: environment.summaryFields } : {}),
    ...(environment.replyTemplates ? { replyTemplates: environment.replyTemplates } : {}),
    ...(environment.archiveOnExtract ? { archiveOnExtract: environment.archiveOnExtract } : {}),
    ...(environment.supportFields ? { supportFields: environment.supportFields } : {}),
  };
}

/** Said at start in sandbox mode: loud, so that nobody takes the sample candidates for real people. */
export function sandboxBanner(sandbox: Pick<Config['sandbox'], 'dataFile' | 'largeImages'>, url: string, candidates: number): string[] {
  const from = sandbox.dataFile ? ` from ${sandbox.dataFile}` : '';
  return [
    '',
    ...boxed([
      'SANDBOX MODE: KYC_BASE_URL is not set, so every lookup goes to the',
      'embedded sandbox upstream and shows made-up sample candidates, not',
      'real people. Set KYC_BASE_URL, KYC_CLIENT_ID and KYC_API_KEY to use',
      'the real service.',
    ]),
    `  Sandbox upstream: ${url} (${candidates} candidates${from}${sandbox.largeImages ? ', large images' : ''})`,
    '',
  ];
}

/** Lines in a box of stars, indented by two, that fits a terminal 80 columns wide. */
function boxed(lines: string[]): string[] {
  const width = Math.max(...lines.map((line) => line.length));
  const edge = `  ${'*'.repeat(width + 6)}`;
  return [edge, ...lines.map((line) => `  *  ${line.padEnd(width)}  *`), edge];
}

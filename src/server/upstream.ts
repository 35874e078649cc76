import type { ApiMeta, SampleCandidate } from '../kyc/contract/api.ts';
import { candidateName } from '../kyc/contract/candidate-name.ts';
import type { Config } from './config.ts';
import type { SandboxCandidate } from './sandbox/candidates.ts';
import type { UpstreamTarget } from './upstream-client.ts';

/** Where lookups go: the configured service, or the embedded sandbox started in this process. */
export interface ResolvedUpstream {
  target: UpstreamTarget;
  meta: ApiMeta;
  /** Lines to print at start; loud in sandbox mode. */
  banner: string[];
  close(): Promise<void>;
}

/**
 * The sandbox's candidates. Loaded on demand: a server with a real upstream never loads the sandbox's
 * pictures, fonts and people at all.
 */
export async function loadSandboxCandidates(config: Config): Promise<SandboxCandidate[]> {
  const candidates = config.sandbox.dataFile
    ? (await import('./sandbox/data-file.ts')).loadSandboxData(config.sandbox.dataFile)
    : (await import('./sandbox/candidates.ts')).sampleCandidates({ now: new Date(), largeImages: config.sandbox.largeImages });
  if (!config.sandbox.hostile) return candidates;
  const { loadHostileCandidate } = await import('./sandbox/hostile-fixture.ts');
  return [...candidates, await loadHostileCandidate()];
}

export function samplesOf(candidates: SandboxCandidate[]): SampleCandidate[] {
  return candidates.map(({ record, summary }) => {
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

export async function resolveUpstream(config: Config): Promise<ResolvedUpstream> {
  if (config.upstream.kind === 'remote') {
    const { kind: _remote, ...target } = config.upstream;
    const { baseUrl, clientId } = target;
    return {
      target,
      meta: { upstream: 'remote' },
      banner: [`Upstream: ${baseUrl} (client id ${clientId})`],
      close: async () => {},
    };
  }
  const { startSandbox } = await import('./sandbox/sandbox.ts');
  const sandbox = await startSandbox({ candidates: await loadSandboxCandidates(config) });
  return {
    target: { baseUrl: sandbox.url, clientId: sandbox.clientId, apiKey: sandbox.keys.full, statusApiKey: sandbox.keys.status },
    meta: { upstream: 'sandbox', samples: samplesOf(sandbox.candidates) },
    banner: [
      '',
      '  ********************************************************************************',
      '  *  SANDBOX MODE: KYC_BASE_URL is not set, so every lookup goes to the embedded  *',
      '  *  sandbox upstream and shows made-up sample candidates, not real people.       *',
      '  *  Set KYC_BASE_URL, KYC_CLIENT_ID and KYC_API_KEY to use the real service.     *',
      '  ********************************************************************************',
      `  Sandbox upstream: ${sandbox.url} (${sandbox.candidates.length} candidates${
        config.sandbox.dataFile ? ` from ${config.sandbox.dataFile}` : ''
      }${config.sandbox.largeImages ? ', large images' : ''})`,
      '',
    ],
    close: () => sandbox.close(),
  };
}

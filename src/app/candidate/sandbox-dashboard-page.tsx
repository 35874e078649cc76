import { useEffect } from 'react';
import { SANDBOX_DASHBOARD_PATH } from '../../kyc/contract/api-paths.ts';
import { decodeIdSegment } from '../../kyc/contract/lookup.ts';
import { useEnvironment } from '../environment/use-environment.ts';
import { Link } from '../navigation.tsx';
import { candidatePath } from '../routes.ts';
import { Card } from '../ui/card.tsx';

const linkClass = 'rounded font-medium text-blue-800 underline underline-offset-2 focus-ring-offset';

/**
 * `/sandbox-dashboard/<recordId>`: where the sandbox's "Open in the KYC service's dashboard" leads. The
 * sandbox has no console of its own, so the page says where a real service's decision is taken and how
 * to take one in the sandbox instead.
 */
export function SandboxDashboardPage() {
  const { path, to, info } = useEnvironment();
  const decoded = decodeIdSegment(path.slice(SANDBOX_DASHBOARD_PATH.length));
  const recordId = decoded.ok && decoded.id !== '' ? decoded.id : undefined;
  useEffect(() => {
    document.title = "The KYC service's dashboard · Candidate Lookup";
  }, []);
  const example = `https://kyc.blockpass.org/kyc/dashboard/#/${info?.clientId ?? '<client id>'}/kyc_detail/${recordId ?? '<recordId>'}`;
  return (
    <Card padding="lg" className="max-w-3xl space-y-3">
      <h1 className="text-xl font-semibold text-slate-900">The KYC service's dashboard</h1>
      <p className="text-sm text-slate-700">
        Decisions are taken in the KYC service's own console, not in Candidate Lookup. With a real service, "Open in the KYC service's
        dashboard" opens this candidate there, in a new tab: for Blockpass at{' '}
        <code className="font-mono break-all text-slate-900">{example}</code>, or at the address an environment's{' '}
        <code className="font-mono">dashboardUrl</code> names. The decision comes back through the service's webhook, and every open page of
        the candidate updates by itself.
      </p>
      <p className="text-sm text-slate-700">
        The embedded sandbox has no console. To take a decision here, use the <strong>Sandbox tool: simulate a decision</strong> box at the
        bottom of the candidate page: the sandbox then sends its webhook as the service would.
      </p>
      {recordId && (
        <p className="text-sm">
          <Link to={to(candidatePath('recordId', recordId))} className={linkClass}>
            Back to the candidate
          </Link>
        </p>
      )}
    </Card>
  );
}

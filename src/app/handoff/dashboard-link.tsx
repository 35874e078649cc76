import type { ReactNode } from 'react';
import type { EnvironmentInfo } from '../../kyc/contract/api.ts';
import { SANDBOX_DASHBOARD_PATH } from '../../kyc/contract/api-paths.ts';
import { dashboardHref } from '../../kyc/view/dashboard-link.ts';
import { Link } from '../navigation.tsx';
import { cn } from '../ui/cn.ts';

export const DASHBOARD_LINK_TEXT = "Open in the KYC service's dashboard";

/**
 * Where the decision is taken: the candidate's page in the KYC service's own console (the environment's
 * `dashboardUrl`, else a Blockpass service's console), opened in a new tab; in sandbox mode the app's page
 * that explains it, in this tab. Nothing when the environment has no console or the candidate lacks the
 * id its address needs.
 */
export function DashboardLink({
  info,
  ids,
  className,
  children = DASHBOARD_LINK_TEXT,
  name,
}: {
  info: Pick<EnvironmentInfo, 'dashboardUrl'> | undefined;
  ids: { recordId?: string | null | undefined; refId?: string | null | undefined };
  className?: string;
  /** What the link says (default: "Open in the KYC service's dashboard"). */
  children?: ReactNode;
  /** Said to screen readers after the text, where many such links share a page (a queue's rows). */
  name?: string;
}) {
  const href = dashboardHref(info?.dashboardUrl, ids);
  if (!href) return null;
  const classes = cn('rounded font-medium text-blue-800 underline underline-offset-2 hover:text-blue-950 focus-ring-offset', className);
  const named = name && (
    <>
      {' '}
      <span className="sr-only">{name}</span>
    </>
  );
  // The sandbox's page is the app's own: no new tab, Back returns.
  if (href.startsWith(SANDBOX_DASHBOARD_PATH)) {
    return (
      <Link to={href} className={classes} data-dashboard-link data-touch>
        {children}
        {named}
      </Link>
    );
  }
  return (
    <a href={href} target="_blank" rel="noreferrer" className={classes} data-dashboard-link data-touch>
      {children}
      {named}
      <span aria-hidden="true"> ↗</span> <span className="sr-only">(opens in a new tab)</span>
    </a>
  );
}

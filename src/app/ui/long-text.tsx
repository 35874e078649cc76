import { type ReactNode, useState } from 'react';
import { Button } from './button.tsx';
import { cn } from './cn.ts';
import { revealBidiControls, truncateText, LONG_TEXT_LIMIT } from '../../kyc/view/text.ts';

/**
 * A value from the service: bidi controls made visible, and cut after a few hundred characters. `wrap`
 * wraps the text alone (a link around it: the toggle must not be inside the link), and `toggleClassName`
 * places the toggle (above an overlay).
 */
export function LongText({
  text,
  limit = LONG_TEXT_LIMIT,
  wrap = (content) => content,
  toggleClassName,
}: {
  text: string;
  limit?: number;
  wrap?: (content: ReactNode) => ReactNode;
  toggleClassName?: string;
}) {
  const [expanded, setExpanded] = useState(false);
  const { shown, hidden } = truncateText(text, limit);
  return (
    <>
      {wrap(
        <>
          {revealBidiControls(expanded ? text : shown)}
          {hidden > 0 && !expanded && '…'}
        </>,
      )}
      {hidden > 0 && (
        <>
          {!expanded && ' '}
          <Button variant="quiet" onClick={() => setExpanded(!expanded)} className={cn('ml-1 text-xs', toggleClassName)}>
            {expanded ? 'Show less' : `Show all (${hidden.toLocaleString()} more characters)`}
          </Button>
        </>
      )}
    </>
  );
}

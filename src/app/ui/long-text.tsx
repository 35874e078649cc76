import { useState } from 'react';
import { Button } from './button.tsx';
import { revealBidiControls, truncateText, LONG_TEXT_LIMIT } from '../../kyc/view/text.ts';

/** A value from the service: bidi controls made visible, and cut after a few hundred characters. */
export function LongText({ text, limit = LONG_TEXT_LIMIT }: { text: string; limit?: number }) {
  const [expanded, setExpanded] = useState(false);
  const { shown, hidden } = truncateText(text, limit);
  return (
    <>
      {revealBidiControls(expanded ? text : shown)}
      {hidden > 0 && (
        <>
          {!expanded && '… '}
          <Button variant="quiet" onClick={() => setExpanded(!expanded)} className="ml-1 text-xs">
            {expanded ? 'Show less' : `Show all (${hidden.toLocaleString()} more characters)`}
          </Button>
        </>
      )}
    </>
  );
}

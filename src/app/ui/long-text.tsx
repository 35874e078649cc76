import { useState } from 'react';
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
          <button
            type="button"
            onClick={() => setExpanded(!expanded)}
            className="ml-1 rounded text-xs font-medium text-blue-700 underline underline-offset-2 focus-visible:outline-2 focus-visible:outline-blue-600"
          >
            {expanded ? 'Show less' : `Show all (${hidden.toLocaleString()} more characters)`}
          </button>
        </>
      )}
    </>
  );
}

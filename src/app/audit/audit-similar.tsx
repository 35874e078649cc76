import { Button } from '../ui/button.tsx';
import { LongText } from '../ui/long-text.tsx';

/**
 * Under a search by user that found nothing: the search wants the whole name as signed in, so part of one
 * (`carla`) finds no line. The names in the trail that contain it (the server's `similarUsers`, at most
 * five) are offered, each a button that searches it.
 */
export function SimilarUsers({ typed, names, onPick }: { typed: string; names: readonly string[]; onPick: (name: string) => void }) {
  if (names.length === 0) return null;
  return (
    <div className="text-sm text-slate-700" data-testid="similar-users">
      <p>
        No user is named exactly “<LongText text={typed} limit={40} />
        ”. Names in the trail that contain it:
      </p>
      <ul className="mt-1 flex flex-wrap gap-x-4 gap-y-1">
        {names.map((name) => (
          <li key={name}>
            <Button variant="quiet" onClick={() => onPick(name)} aria-label={`Search the trail for user ${name}`}>
              <LongText text={name} limit={60} />
            </Button>
          </li>
        ))}
      </ul>
    </div>
  );
}

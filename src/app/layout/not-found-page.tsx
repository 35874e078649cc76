import { Link } from '../navigation.tsx';
import { Card } from '../ui/card.tsx';

export function NotFoundPage() {
  return (
    <Card padding="lg">
      <h1 className="text-xl font-semibold">Page not found</h1>
      <p className="mt-2 text-sm text-slate-600">
        Candidate links look like <code>/candidates/refId/&lt;id&gt;</code>.{' '}
        <Link to="/" className="text-blue-700 underline">
          Look a candidate up
        </Link>
        .
      </p>
    </Card>
  );
}

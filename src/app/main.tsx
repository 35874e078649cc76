import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './styles.css';

function Placeholder() {
  return (
    <main className="mx-auto max-w-3xl p-8">
      <h1 className="text-2xl font-semibold">Candidate Lookup</h1>
      <p className="mt-2 text-slate-600">The viewer is coming. The API is at /api/candidates/refId/&lt;id&gt;.</p>
    </main>
  );
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Placeholder />
  </StrictMode>,
);

import { Component, type ReactNode } from 'react';
import { Button } from './button.tsx';
import { Card } from './card.tsx';

/**
 * The last line of defence: a page that fails while rendering shows what happened and a way out,
 * instead of a blank screen. (Every expected failure has its own state before this.) With `fallback`, a
 * part of a page that fails shows that instead, and the rest of the page stays.
 */
export class PageErrorBoundary extends Component<{ children: ReactNode; fallback?: ReactNode }, { error?: Error }> {
  override state: { error?: Error } = {};

  static getDerivedStateFromError(error: unknown) {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  override render() {
    if (!this.state.error) return this.props.children;
    // A part of a page that failed (a chunk that did not load) says so where it stood, the page kept.
    if (this.props.fallback !== undefined) return this.props.fallback;
    return (
      <Card role="alert" tone="danger" className="space-y-3">
        <h1 className="text-xl font-semibold">This page could not be shown</h1>
        <p className="text-sm break-words">
          {/chunk|dynamically imported module|Importing a module script failed/i.test(this.state.error.message)
            ? 'A part of the application could not be loaded, perhaps because a new version was installed. Reload the page.'
            : `Something in this page's data could not be displayed (${this.state.error.message.slice(0, 200)}).`}
        </p>
        <Button onClick={() => window.location.reload()}>Reload the page</Button>
      </Card>
    );
  }
}

import { Component, type ReactNode } from 'react';

/**
 * The last line of defence: a page that fails while rendering shows what happened and a way out,
 * instead of a blank screen. (Every expected failure has its own state before this.)
 */
export class PageErrorBoundary extends Component<{ children: ReactNode }, { error?: Error }> {
  override state: { error?: Error } = {};

  static getDerivedStateFromError(error: unknown) {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  override render() {
    if (!this.state.error) return this.props.children;
    return (
      <div role="alert" className="space-y-3 rounded-xl border border-red-200 bg-red-50 p-5 text-red-950">
        <h1 className="text-xl font-semibold">This page could not be shown</h1>
        <p className="text-sm break-words">
          {/chunk|dynamically imported module|Importing a module script failed/i.test(this.state.error.message)
            ? 'A part of the application could not be loaded, perhaps because a new version was installed. Reload the page.'
            : `Something in this page's data could not be displayed (${this.state.error.message.slice(0, 200)}).`}
        </p>
        <button
          type="button"
          onClick={() => window.location.reload()}
          className="rounded-md bg-blue-700 px-3 py-1.5 text-sm font-medium text-white hover:bg-blue-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600"
        >
          Reload the page
        </button>
      </div>
    );
  }
}

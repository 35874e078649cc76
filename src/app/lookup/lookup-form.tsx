import { Suspense, useEffect, useId, useRef } from 'react';
import type { LookupKind } from '../../kyc/contract/lookup.ts';
import { useRecentLookups } from '../recent/recent-lookups.ts';
import { Button } from '../ui/button.tsx';
import { lazyNamed } from '../ui/lazy-named.ts';
import { PageErrorBoundary } from '../ui/page-error-boundary.tsx';
import { KindPicker } from '../ui/kind-picker.tsx';
import { loadPaste, useLookupForm } from './use-lookup-form.ts';
import { useSearchShortcut } from './use-search-shortcut.ts';

/** Only after a list is pasted: off the first load, which has at most 100 kB. */
const BatchOffer = lazyNamed(() => import('./batch-offer.tsx'), 'BatchOffer');
/** Only when the text reads like personal data, likewise. */
const PersonalDataAsked = lazyNamed(() => import('./personal-data-asked.tsx'), 'PersonalDataAsked');
/** Only once there is a recent lookup (a candidate page, itself off the first load, was shown): its status words are the contract's. */
const RecentSuggestions = lazyNamed(() => import('./recent-suggestions.tsx'), 'RecentSuggestions');

export interface LookupFormProps {
  compact?: boolean;
  /** Focus the box when the form appears (the home page). */
  autoFocus?: boolean;
  /** The candidate the page shows: the box and the toggle follow it. */
  current?: { kind: LookupKind; id: string };
}

/**
 * Look up by refId (what support agents have) or by recordId. Pasted text is cleaned of invisible
 * characters (and says so), a link of this app or of the service's dashboard gives its id, a list offers
 * a batch lookup instead.
 */
export function LookupForm({ compact = false, autoFocus = false, current }: LookupFormProps) {
  const form = useLookupForm(current);
  const { kind, problem, cleaned, linkEnvironment, notice, list, asked } = form;
  const ids = { input: useId(), error: useId(), note: useId(), asked: useId() };
  useSearchShortcut(form.input);
  // Fetched after the first paint, before the reviewer pastes (use-lookup-form.ts).
  useEffect(() => void loadPaste().catch(() => {}), []);

  const describedBy = [problem && ids.error, (cleaned || notice) && ids.note, asked && ids.asked].filter(Boolean).join(' ') || undefined;
  return (
    <search aria-label="Look up a candidate" className={compact ? 'block w-full' : 'block space-y-3'}>
      <form onSubmit={form.submit} noValidate>
        <div className={compact ? 'flex flex-col gap-2 sm:flex-row' : 'flex flex-col gap-2 sm:flex-row sm:items-stretch'}>
          <KindPicker kind={kind} onChange={form.setKind} />
          <div data-testid="search-field-row" className="flex min-w-0 flex-1 gap-2">
            <SearchInput id={ids.input} form={form} autoFocus={autoFocus} invalid={problem !== undefined} describedBy={describedBy} />
            <Button type="submit" size="lg">
              {compact ? <CompactLookUp /> : 'Look up'}
            </Button>
          </div>
        </div>
        {problem && (
          <p id={ids.error} role="alert" className="mt-1 text-sm font-medium text-red-700">
            {problem}
          </p>
        )}
        {(cleaned || linkEnvironment || notice) && (
          <p id={ids.note} role="status" className="mt-1 text-sm text-slate-700">
            {notice}
            {cleaned && `Removed from the pasted id: ${cleaned}.`}
            {linkEnvironment && ` Taken from a link to the ${linkEnvironment} environment.`}
          </p>
        )}
        {asked && (
          // The question is asked when the check for personal data did not load (offline): its own chunk
          // may not load either, and then this says so in its place, where the whole page gave way.
          <PageErrorBoundary
            fallback={
              <p id={ids.asked} role="alert" className="mt-1 text-sm font-medium text-red-700">
                Not looked up: the question about this text could not load.{' '}
                <button type="button" className="underline" onClick={form.lookUpAnyway}>
                  Look it up anyway
                </button>
              </p>
            }
          >
            <Suspense fallback={null}>
              <PersonalDataAsked id={ids.asked} what={asked} field={form.input} onAnyway={form.lookUpAnyway} onClose={form.unask} />
            </Suspense>
          </PageErrorBoundary>
        )}
      </form>
      {list && (
        <Suspense fallback={null}>
          <BatchOffer list={list} kind={form.listKind} environment={form.environment} onDismiss={form.dismissList} onUseOne={form.useOne} />
        </Suspense>
      )}
    </search>
  );
}

/**
 * The header's "Look up": a magnifier from 640 to 1535 px, where the header's row gives the box its room (16rem at
 * least, a recordId whole in it: app-shell.tsx), the words for screen readers and voice control; the words on a
 * phone (the form has its own panel there) and from 2xl.
 */
function CompactLookUp() {
  return (
    <>
      <svg
        aria-hidden="true"
        viewBox="0 0 16 16"
        className="hidden size-4 sm:max-2xl:inline-block"
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
      >
        <circle cx="7" cy="7" r="4.5" />
        <path d="m10.5 10.5 3.5 3.5" strokeLinecap="round" />
      </svg>
      <span className="sm:max-2xl:sr-only">Look up</span>
    </>
  );
}

/**
 * The id box: the whole id selected on focus (also by a click), a clear button, and the user's recent
 * lookups of this kind as suggestions.
 */
function SearchInput({
  id,
  form,
  autoFocus,
  invalid,
  describedBy,
}: {
  id: string;
  form: ReturnType<typeof useLookupForm>;
  autoFocus: boolean;
  invalid: boolean;
  describedBy: string | undefined;
}) {
  const { kind, value } = form;
  const selectOnMouseUp = useRef(false);
  const suggestions = useId();
  const recent = useRecentLookups().filter((r) => r.kind === kind);
  return (
    <div className="relative min-w-0 flex-1">
      <label htmlFor={id} className="sr-only">
        {kind} to look up
      </label>
      <input
        ref={form.input}
        id={id}
        name="id"
        value={value}
        // The home page's one job is this box: focus belongs there when it opens.
        // biome-ignore lint/a11y/noAutofocus: the search box is the home page's only purpose
        autoFocus={autoFocus}
        onChange={(event) => form.type(event.target.value)}
        onPaste={form.onPaste}
        onKeyDown={(event) => {
          if (event.key !== 'Escape' || event.defaultPrevented) return;
          event.preventDefault();
          form.drop();
        }}
        onFocus={(event) => {
          event.currentTarget.select();
          selectOnMouseUp.current = true;
        }}
        onMouseUp={(event) => {
          // A click that focused the box would otherwise put the caret where it landed and lose the selection.
          if (selectOnMouseUp.current) event.preventDefault();
          selectOnMouseUp.current = false;
        }}
        onBlur={() => {
          selectOnMouseUp.current = false;
        }}
        list={recent.length > 0 ? suggestions : undefined}
        placeholder={kind === 'refId' ? 'refId, e.g. cust_000482' : 'recordId, e.g. 65f1c2a9e4b0d3a1f0c9b801'}
        autoComplete="off"
        spellCheck={false}
        aria-invalid={invalid ? true : undefined}
        aria-describedby={describedBy}
        aria-keyshortcuts="/ Control+K Meta+K"
        className="w-full min-w-0 rounded-md border border-slate-300 bg-white py-1.5 pr-9 pl-3 text-sm text-slate-900 placeholder:text-slate-500 focus-visible:border-blue-600 focus-ring"
      />
      {value !== '' && (
        <button
          type="button"
          onClick={form.clear}
          aria-label="Clear the id"
          className="absolute inset-y-0 right-1 my-auto flex size-7 items-center justify-center rounded text-lg leading-none text-slate-500 hover:text-slate-900 focus-ring"
        >
          <span aria-hidden="true">×</span>
        </button>
      )}
      {recent.length > 0 && (
        <Suspense fallback={null}>
          <RecentSuggestions id={suggestions} recent={recent} />
        </Suspense>
      )}
    </div>
  );
}

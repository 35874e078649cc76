import { type KeyboardEvent, type ReactNode, useId, useLayoutEffect, useRef } from 'react';
import { cn } from './cn.ts';
import { DialogNotices } from './dialog-notices.tsx';

/**
 * A small modal dialog, open while it is rendered: the browser's own `<dialog>` (focus kept inside,
 * the page behind inert, focus handed back on close), titled, closed by Escape or its buttons. `onClose`
 * is told once, however it closed.
 */
export function ModalDialog({
  title,
  onClose,
  children,
  className,
  testId,
}: {
  title: string;
  onClose: () => void;
  children: ReactNode;
  className?: string;
  testId?: string;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useLayoutEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
    // Focus inside (the field marked autoFocus, else the first control), also where the dialog is not native.
    if (element && !element.contains(document.activeElement)) {
      element.querySelector<HTMLElement>('[autofocus], textarea, input, button')?.focus();
    }
    return () => {
      if (element?.open) element.close();
    };
  }, []);
  // Escape closes as the browser's cancel does (also where there is no native dialog).
  const onKeyDown = (event: KeyboardEvent<HTMLDialogElement>) => {
    if (event.key !== 'Escape') return;
    event.preventDefault();
    event.stopPropagation();
    dialog.current?.close();
  };
  return (
    <dialog
      ref={dialog}
      aria-labelledby={titleId}
      onClose={onClose}
      onKeyDown={onKeyDown}
      data-testid={testId}
      className={cn(
        'm-auto w-[min(40rem,calc(100vw-2rem))] max-w-none rounded-xl bg-white p-5 text-slate-900 shadow-2xl backdrop:bg-slate-950/50',
        className,
      )}
    >
      <h2 id={titleId} className="mb-3 text-lg font-semibold">
        {title}
      </h2>
      <DialogNotices />
      {children}
    </dialog>
  );
}

import { useId, useLayoutEffect, useRef, type FormEvent, type ReactNode, type SyntheticEvent } from 'react';
import { createPortal } from 'react-dom';

interface DialogProps {
  title: string;
  onClose: () => void;
  /** When given, the body is a form and Enter submits it. */
  onSubmit?: () => void;
  children: ReactNode;
  actions: ReactNode;
  /** Extra class names for the card (e.g. a wider dialog). */
  className?: string;
}

/**
 * Shows a <dialog> as a modal from mount to unmount and reports Esc through `onClose`. The close
 * on unmount runs in a layout effect, while the element is still in the document, so the browser
 * hands focus back to the opener. The element marked `data-autofocus` gets focus on open.
 */
export function useModal(onClose: () => void) {
  const ref = useRef<HTMLDialogElement>(null);
  useLayoutEffect(() => {
    const dialog = ref.current;
    if (!dialog) return undefined;
    if (!dialog.open) dialog.showModal();
    dialog.querySelector<HTMLElement>('[data-autofocus]')?.focus();
    return () => {
      // Our own close on unmount must not report itself as a close by the browser.
      dialog.dataset.closing = 'true';
      dialog.close();
    };
  }, []);
  const handlers = {
    // Esc: the browser would close the element itself; the owner removes it instead.
    onCancel: (event: SyntheticEvent) => {
      event.preventDefault();
      onClose();
    },
    // Chromium may close a modal on Esc without a cancel event when the page had no user
    // activation since it opened: the close event then says so.
    onClose: (event: SyntheticEvent<HTMLDialogElement>) => {
      const dialog = event.currentTarget;
      if (dialog.isConnected && !dialog.dataset.closing) onClose();
    },
  };
  return [ref, handlers] as const;
}

/**
 * A modal card on the native <dialog>: the browser traps focus (the page behind is inert), Esc
 * closes, and the opener gets focus back on close. The first field, or the element marked
 * `data-autofocus` (a confirm button, so that Enter confirms), is focused on open.
 */
export function Dialog({ title, onClose, onSubmit, children, actions, className }: DialogProps) {
  const [ref, modal] = useModal(onClose);
  const titleId = useId();

  const submit = (event: FormEvent): void => {
    event.preventDefault();
    // React bubbles events through portals: a form around the opener must not submit too.
    event.stopPropagation();
    onSubmit?.();
  };

  // In document.body, never inside the opener's form (nested forms do not submit).
  return createPortal(
    <dialog ref={ref} className={className ? `card dialog ${className}` : 'card dialog'} aria-labelledby={titleId}
      onCancel={modal.onCancel} onClose={modal.onClose}>
      <form method="dialog" onSubmit={submit}>
        <h2 id={titleId} className="card-title">{title}</h2>
        <div className="card-body">{children}</div>
        <div className="card-actions">{actions}</div>
      </form>
    </dialog>,
    document.body,
  );
}

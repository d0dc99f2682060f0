import { useEffect, useId, useRef, type FormEvent, type ReactNode } from 'react';
import { createPortal } from 'react-dom';

interface DialogProps {
  title: string;
  onClose: () => void;
  /** When given, the body is a form and Enter submits it. */
  onSubmit?: () => void;
  children: ReactNode;
  actions: ReactNode;
}

/** A modal card on the native <dialog>: focus trap, Esc and the backdrop come from the browser. */
export function Dialog({ title, onClose, onSubmit, children, actions }: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();

  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
    return () => dialog?.close();
  }, []);

  const submit = (event: FormEvent): void => {
    event.preventDefault();
    // React bubbles events through portals: a form around the opener must not submit too.
    event.stopPropagation();
    onSubmit?.();
  };

  // In document.body, never inside the opener's form (nested forms do not submit).
  return createPortal(
    <dialog ref={ref} className="card dialog" aria-labelledby={titleId} onCancel={onClose}>
      <form method="dialog" onSubmit={submit}>
        <h2 id={titleId} className="card-title">{title}</h2>
        <div className="card-body">{children}</div>
        <div className="card-actions">{actions}</div>
      </form>
    </dialog>,
    document.body,
  );
}

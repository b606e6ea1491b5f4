import { useEffect, useId, useRef, type ReactNode } from "react";

/**
 * A modal dialog on the browser's own `<dialog>`: role dialog, the rest of the page inert, focus moved inside (to the
 * control marked `data-autofocus`, else the first) and back to where it was when the dialog closes, Escape cancels. `onClose` runs however it closes.
 */
export function ModalDialog({ title, onClose, children }: { title: ReactNode; onClose: () => void; children: ReactNode }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const element = dialog.current!;
    const opener = document.activeElement as HTMLElement | null;
    element.showModal();
    // The safe choice (Cancel) takes focus when the dialog marks one, never the destructive button first in order.
    element.querySelector<HTMLElement>("[data-autofocus]")?.focus();
    const closed = () => onClose();
    element.addEventListener("close", closed);
    return () => {
      element.removeEventListener("close", closed);
      if (element.open) element.close();
      opener?.focus();
    };
  }, [onClose]);
  return (
    <dialog ref={dialog} aria-labelledby={titleId} className="modal">
      <h2 id={titleId}>{title}</h2>
      {children}
    </dialog>
  );
}

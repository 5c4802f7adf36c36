import { useEffect, useRef, useState } from 'preact/hooks';

export interface ConfirmRequest {
  title: string;
  body: string;
  /** The label of the button that goes ahead ("Delete webhook"); Cancel is the other, and the default. */
  confirm: string;
}

/**
 * Asks before a destructive action, in a modal `<dialog>` (decision 0802): Cancel has the focus,
 * Escape cancels, and the question says what will be lost. `ask` resolves true only on the
 * confirming button.
 */
export function useConfirm(): { ask: (r: ConfirmRequest) => Promise<boolean>; dialog: preact.JSX.Element | null } {
  const [req, setReq] = useState<(ConfirmRequest & { answer: (ok: boolean) => void }) | null>(null);
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    if (req && ref.current && !ref.current.open) ref.current.showModal();
  }, [req]);
  const ask = (r: ConfirmRequest): Promise<boolean> => new Promise((answer) => setReq({ ...r, answer }));
  const close = (ok: boolean): void => {
    ref.current?.close();
    req?.answer(ok);
    setReq(null);
  };
  const dialog = req && (
    <dialog
      ref={ref}
      class="confirm"
      aria-labelledby="confirm-title"
      aria-describedby="confirm-body"
      onCancel={(e) => {
        e.preventDefault();
        close(false);
      }}
    >
      <h2 id="confirm-title">{req.title}</h2>
      <p id="confirm-body">{req.body}</p>
      <div class="actions">
        <button type="button" class="secondary" autoFocus onClick={() => close(false)}>
          Cancel
        </button>
        <button type="button" class="danger" onClick={() => close(true)}>
          {req.confirm}
        </button>
      </div>
    </dialog>
  );
  return { ask, dialog };
}

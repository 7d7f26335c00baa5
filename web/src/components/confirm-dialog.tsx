import {
  createContext,
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useId,
  useRef,
  useState,
} from 'react';
import { ModalDialog } from './modal-dialog';

export interface ConfirmOptions {
  /** The question, e.g. 'Are you sure to logout?'. */
  message: string;
  confirmLabel?: string;
  cancelLabel?: string;
  /** Styles the confirming button as destructive. */
  danger?: boolean;
}

type Confirm = (options: ConfirmOptions) => Promise<boolean>;
const ConfirmContext = createContext<Confirm | null>(null);

/**
 * One modal confirmation for the whole app, on the native <dialog>: it keeps focus inside,
 * closes on Escape, and gives focus back to the button that opened it.
 */
export function ConfirmProvider({ children }: { children: ReactNode }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const [request, setRequest] = useState<{
    options: ConfirmOptions;
    resolve: (answer: boolean) => void;
  } | null>(null);

  useEffect(() => {
    if (request && !dialog.current?.open) dialog.current?.showModal();
  }, [request]);

  const confirm = useCallback<Confirm>(
    (options) => new Promise((resolve) => setRequest({ options, resolve })),
    [],
  );
  const answer = (value: boolean) => {
    dialog.current?.close();
    request?.resolve(value);
    setRequest(null);
  };

  return (
    <ConfirmContext value={confirm}>
      {children}
      <ModalDialog ref={dialog} titleId={titleId} onDismiss={() => answer(false)}>
        {request && (
          <div className="modal-box">
            <h2 id={titleId} className="text-lg font-semibold">
              {request.options.message}
            </h2>
            <div className="modal-action">
              <button type="button" className="btn btn-ghost" onClick={() => answer(false)}>
                {request.options.cancelLabel ?? 'Cancel'}
              </button>
              <button
                type="button"
                className={`btn ${request.options.danger ? 'btn-error' : 'btn-primary'}`}
                onClick={() => answer(true)}
              >
                {request.options.confirmLabel ?? 'Yes'}
              </button>
            </div>
          </div>
        )}
      </ModalDialog>
    </ConfirmContext>
  );
}

/** Asks the user to confirm; resolves true on confirm, false on cancel or Escape. */
export function useConfirm(): Confirm {
  const confirm = useContext(ConfirmContext);
  if (!confirm) throw new Error('useConfirm must be used inside ConfirmProvider');
  return confirm;
}

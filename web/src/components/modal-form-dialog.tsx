import {
  type FormEvent,
  type ReactNode,
  type Ref,
  useEffect,
  useId,
  useRef,
  useState,
} from 'react';
import { ErrorAlert } from './error-alert';
import { ModalDialog } from './modal-dialog';

export interface ModalFormDialogProps {
  ref: Ref<HTMLDialogElement>;
  /** The id of the form's heading, which names the dialog. */
  titleId: string;
  title: string;
  /** The form is shown only while this is true. */
  open: boolean;
  /** While the form is being sent: it cannot be closed, and its buttons are disabled. */
  sending: boolean;
  onClose: () => void;
  onSubmit: (event: FormEvent<HTMLFormElement>) => unknown;
  /** Why the last send failed, shown above the buttons. */
  failure: string | null;
  /** The label of the button that closes the dialog without sending. */
  keepLabel: string;
  /** The label of the submit button, and its colour class. */
  submitLabel: string;
  submitClassName: string;
  submitDisabled?: boolean;
  children: ReactNode;
}

/**
 * A form on a modal dialog: its heading, its fields, the failure, then the action row ('keep'
 * closes it, the submit button shows a spinner while sending). Escape closes it unless sending.
 */
export function ModalFormDialog({
  ref,
  titleId,
  title,
  open,
  sending,
  onClose,
  onSubmit,
  failure,
  keepLabel,
  submitLabel,
  submitClassName,
  submitDisabled = false,
  children,
}: ModalFormDialogProps) {
  return (
    <ModalDialog
      ref={ref}
      titleId={titleId}
      onDismiss={() => {
        if (!sending) onClose();
      }}
      // Escape closes it as the browser's own 'cancel' does, where that does not fire.
      onKeyDown={(event) => {
        if (event.key !== 'Escape') return;
        event.preventDefault();
        if (!sending) onClose();
      }}
    >
      {open ? (
        <form
          className="modal-box flex flex-col gap-4"
          onSubmit={(event) => void onSubmit(event)}
          noValidate
        >
          <h2 id={titleId} className="text-lg font-semibold text-neutral">
            {title}
          </h2>
          {children}
          <ErrorAlert>{failure}</ErrorAlert>
          <div className="modal-action mt-0 flex-wrap">
            <button type="button" className="btn btn-ghost" onClick={onClose} disabled={sending}>
              {keepLabel}
            </button>
            <button
              type="submit"
              className={`btn ${submitClassName}`}
              disabled={sending || submitDisabled}
            >
              {sending ? (
                <span className="loading loading-spinner loading-xs" aria-hidden="true" />
              ) : null}
              {submitLabel}
            </button>
          </div>
        </form>
      ) : null}
    </ModalDialog>
  );
}

/**
 * The state a `ModalFormDialog` keeps: its dialog and form shown while `subject` (what the form
 * acts on) is there, `onOpen` then resetting the fields and focusing the first; the last failure; and
 * `send`, which runs the request (resolving to null, or to why it failed) while `sending`.
 */
export function useModalForm(subject: unknown, onOpen: () => void) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const [failure, setFailure] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  // The latest `onOpen`, without reopening the dialog each time the caller renders a new one.
  const opened = useRef(onOpen);
  opened.current = onOpen;

  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    if (subject && !element.open) {
      setFailure(null);
      element.showModal();
      opened.current();
    } else if (!subject && element.open) {
      element.close();
    }
  }, [subject]);

  const send = async (request: () => Promise<string | null>) => {
    setFailure(null);
    setSending(true);
    const failed = await request();
    setSending(false);
    if (failed) setFailure(failed);
  };

  return { dialog: { ref, titleId, open: Boolean(subject), sending, failure }, setFailure, send };
}

import type { ComponentProps } from 'react';

type ModalDialogProps = Omit<ComponentProps<'dialog'>, 'className' | 'onCancel'> & {
  /** The id of the element that names the dialog (its heading). */
  titleId: string;
  /** Escape (the browser's 'cancel') asks this instead of closing the dialog outright. */
  onDismiss: () => void;
};

/** A modal `<dialog>`: a sheet from the bottom on phones, centred on larger screens. */
export function ModalDialog({ titleId, onDismiss, children, ...props }: ModalDialogProps) {
  return (
    <dialog
      className="modal modal-bottom sm:modal-middle"
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        onDismiss();
      }}
      {...props}
    >
      {children}
    </dialog>
  );
}

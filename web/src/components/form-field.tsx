import {
  forwardRef,
  type InputHTMLAttributes,
  type ReactNode,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
  useId,
} from 'react';

/** The parts every labelled control shares: its id, the hint and the error read out with it. */
function controlProps(id: string, hint: ReactNode, error: string | undefined) {
  const describedBy = [hint ? `${id}-hint` : '', error ? `${id}-error` : '']
    .filter(Boolean)
    .join(' ');
  return {
    id,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': describedBy || undefined,
  };
}

interface Labelled {
  label: string;
  error?: string;
  hint?: ReactNode;
}

/** A control's error below it, announced as it appears; nothing when there is none. */
export function FieldError({
  id,
  error,
  className = '',
}: {
  id?: string;
  error: string | null | undefined;
  className?: string;
}) {
  if (!error) return null;
  return (
    <p id={id} className={`text-sm text-error ${className}`} role="alert">
      {error}
    </p>
  );
}

/** The label above a control, and its hint and error below it. */
function Frame({
  id,
  label,
  hint,
  error,
  children,
}: Labelled & { id: string; children: ReactNode }) {
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      {children}
      {hint ? (
        <p id={`${id}-hint`} className="text-sm text-muted">
          {hint}
        </p>
      ) : null}
      <FieldError id={`${id}-error`} error={error} />
    </div>
  );
}

interface FieldProps extends InputHTMLAttributes<HTMLInputElement>, Labelled {}

/** A labelled input whose hint and error are shown below it and read out with it. */
export const Field = forwardRef<HTMLInputElement, FieldProps>(function Field(
  { label, error, hint, className = '', ...input },
  ref,
) {
  const id = useId();
  const file = input.type === 'file';
  const look = file ? 'file-input' : 'input';
  return (
    <Frame id={id} label={label} hint={hint} error={error}>
      <input
        ref={ref}
        {...controlProps(id, hint, error)}
        className={`${look} w-full ${error ? `${look}-error` : ''} ${className}`}
        {...input}
      />
    </Frame>
  );
});

interface SelectFieldProps extends SelectHTMLAttributes<HTMLSelectElement>, Labelled {}

/** A labelled drop-down, like Field. */
export const SelectField = forwardRef<HTMLSelectElement, SelectFieldProps>(function SelectField(
  { label, error, hint, className = '', children, ...select },
  ref,
) {
  const id = useId();
  return (
    <Frame id={id} label={label} hint={hint} error={error}>
      <select
        ref={ref}
        {...controlProps(id, hint, error)}
        className={`select w-full ${error ? 'select-error' : ''} ${className}`}
        {...select}
      >
        {children}
      </select>
    </Frame>
  );
});

interface TextAreaFieldProps extends TextareaHTMLAttributes<HTMLTextAreaElement>, Labelled {}

/** A labelled multi-line text field, like Field. */
export const TextAreaField = forwardRef<HTMLTextAreaElement, TextAreaFieldProps>(
  function TextAreaField({ label, error, hint, className = '', ...textarea }, ref) {
    const id = useId();
    return (
      <Frame id={id} label={label} hint={hint} error={error}>
        <textarea
          ref={ref}
          {...controlProps(id, hint, error)}
          className={`textarea w-full ${error ? 'textarea-error' : ''} ${className}`}
          {...textarea}
        />
      </Frame>
    );
  },
);

/** A labelled whole-number field, like Field: the digits keypad on phones, steps of 1 unless given. */
export const NumberField = forwardRef<HTMLInputElement, Omit<FieldProps, 'type' | 'inputMode'>>(
  function NumberField({ step = 1, ...field }, ref) {
    return <Field ref={ref} type="number" inputMode="numeric" step={step} {...field} />;
  },
);

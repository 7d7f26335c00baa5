import {
  type ChangeEvent,
  type FormEvent,
  type InputHTMLAttributes,
  type Ref,
  useId,
  useLayoutEffect,
  useRef,
  useState,
} from 'react';
import { ErrorAlert } from '../../../components/error-alert';
import { ApiError, SessionEndedError } from '../../../lib/api-client';
import { useConfirmDemoCard } from '../api/confirm-demo-card';
import {
  caretAfterDigits,
  digitsOf,
  formatCardNumber,
  formatExpiry,
  parseExpiry,
} from '../card-format';
import { type CardFormProps, PayButton, PreparingNote } from './card-form-parts';

type FieldName = 'number' | 'expiry' | 'cvc' | 'postalCode';

/** Stripe's test cards that the demo gateway knows (https://docs.stripe.com/testing). */
const TEST_CARDS = [
  { number: '4242 4242 4242 4242', outcome: 'succeeds' },
  { number: '4000 0000 0000 0002', outcome: 'is declined' },
  { number: '4000 0000 0000 9995', outcome: 'has insufficient funds' },
] as const;

/** Any future expiry, CVC and postcode go with a test card; these fill the empty fields. */
const TEST_DETAILS = { expiry: '12 / 34', cvc: '123', postalCode: '10001' } as const;

/** What each field is called, and what the browser is told to fill in and show in it. */
const CARD_FIELDS = {
  number: {
    label: 'Card number',
    inputMode: 'numeric',
    autoComplete: 'cc-number',
    placeholder: '1234 1234 1234 1234',
  },
  expiry: {
    label: 'Expiry (MM / YY)',
    inputMode: 'numeric',
    autoComplete: 'cc-exp',
    placeholder: 'MM / YY',
  },
  cvc: { label: 'CVC', inputMode: 'numeric', autoComplete: 'cc-csc', placeholder: '123' },
  postalCode: {
    label: 'Postcode',
    autoComplete: 'postal-code',
    autoCapitalize: 'characters',
    placeholder: '10001',
    maxLength: 12,
  },
} as const satisfies Record<FieldName, { label: string } & InputHTMLAttributes<HTMLInputElement>>;

/** Stripe's message when the expiry is not filled in (its card element says it before sending). */
const INCOMPLETE_EXPIRY = "Your card's expiration date is incomplete.";

/** Which field a card error from the gateway is about, by Stripe's error code. */
function fieldOf(code: string): FieldName | null {
  if (code.endsWith('_number')) return 'number';
  if (code.includes('expiry') || code === 'expired_card') return 'expiry';
  if (code.endsWith('_cvc')) return 'cvc';
  if (code.endsWith('_zip')) return 'postalCode';
  return null;
}

/**
 * A text input that reformats what is typed (card number in groups, expiry as 'MM / YY') and
 * keeps the caret after the same digit. Deleting a separator deletes the digit before it.
 */
function useFormattedValue(format: (text: string) => string) {
  const [value, setValue] = useState('');
  const ref = useRef<HTMLInputElement>(null);
  const caret = useRef<number | null>(null);

  useLayoutEffect(() => {
    const input = ref.current;
    if (caret.current === null || !input || document.activeElement !== input) return;
    input.setSelectionRange(caret.current, caret.current);
    caret.current = null;
  });

  const onChange = (event: ChangeEvent<HTMLInputElement>) => {
    const input = event.currentTarget;
    const typed = input.value;
    const at = input.selectionStart ?? typed.length;
    const digits = digitsOf(typed);
    let before = digitsOf(typed.slice(0, at)).length;
    let next = format(typed);
    const deleting = (event.nativeEvent as InputEvent).inputType === 'deleteContentBackward';
    if (deleting && digits === digitsOf(value) && before > 0) {
      // Only a separator went: take the digit before it instead.
      next = format(digits.slice(0, before - 1) + digits.slice(before));
      before -= 1;
    }
    caret.current = at >= typed.length ? next.length : caretAfterDigits(next, before);
    setValue(next);
  };

  return { value, setValue, input: { ref, value, onChange } };
}

/** A field of the card form; marked invalid when the form's error (`problem`) is about it. */
function CardField({
  name,
  problem,
  ...input
}: InputHTMLAttributes<HTMLInputElement> & {
  name: FieldName;
  problem: { field: FieldName | null; id: string };
  ref?: Ref<HTMLInputElement>;
}) {
  const id = useId();
  const { label, ...attributes } = CARD_FIELDS[name];
  const invalid = problem.field === name;
  return (
    <div className="flex min-w-0 flex-col gap-1.5">
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      <input
        id={id}
        type="text"
        spellCheck={false}
        className={`input w-full font-mono tracking-wide ${invalid ? 'input-error' : ''}`}
        aria-invalid={invalid ? true : undefined}
        aria-describedby={invalid ? problem.id : undefined}
        name={name}
        {...attributes}
        {...input}
      />
    </div>
  );
}

/**
 * The demo gateway's card form (provider 'demo'): card number, expiry, CVC and postcode, judged
 * by the gateway with Stripe's test-mode rules and messages. No money moves, and the page says so.
 */
export default function DemoCardForm({ clientSecret, billing, onPaid, amountId }: CardFormProps) {
  const number = useFormattedValue(formatCardNumber);
  const expiry = useFormattedValue(formatExpiry);
  const [cvc, setCvc] = useState('');
  const [postalCode, setPostalCode] = useState('');
  const confirmCard = useConfirmDemoCard();
  const processing = confirmCard.isPending;
  const [error, setError] = useState<{ message: string; field: FieldName | null } | null>(null);
  const errorId = useId();
  const noticeId = useId();
  const form = useRef<HTMLFormElement>(null);
  const ready = clientSecret !== null;

  /**
   * Says what the gateway refused, and puts the focus on the field it is about (the card number
   * for a declined card): the Pay button, disabled while it was sent, has lost it.
   */
  const refused = (message: string, field: FieldName | null) => {
    setError({ message, field });
    const input = form.current?.elements.namedItem(field ?? 'number');
    if (input instanceof HTMLInputElement) input.focus();
  };

  const fillTestCard = (card: string) => {
    number.setValue(card);
    if (!expiry.value) expiry.setValue(TEST_DETAILS.expiry);
    if (!cvc) setCvc(TEST_DETAILS.cvc);
    if (!postalCode) setPostalCode(TEST_DETAILS.postalCode);
    setError(null);
  };

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!clientSecret || processing) return;
    setError(null);
    const date = parseExpiry(expiry.value);
    try {
      const result = await confirmCard.mutateAsync({
        clientSecret,
        card: {
          number: digitsOf(number.value),
          // An incomplete expiry is sent as month 0, so the gateway still checks the number first.
          expMonth: date?.month ?? 0,
          expYear: date?.year ?? 0,
          cvc: cvc.trim(),
          postalCode: postalCode.trim(),
        },
        billing,
      });
      if ('error' in result) {
        const field = fieldOf(result.error.code);
        refused(field === 'expiry' && !date ? INCOMPLETE_EXPIRY : result.error.message, field);
      } else {
        onPaid(result.paymentIntent.id);
      }
    } catch (failure) {
      // An ended session is on its way to the login page.
      if (failure instanceof SessionEndedError) return;
      setError({
        message:
          failure instanceof ApiError
            ? failure.message
            : 'The payment could not be sent. Please try again.',
        field: null,
      });
    }
  };

  const problem = { field: error?.field ?? null, id: errorId };
  /** Editing the field an error is about clears the error: the patient is fixing it. */
  const editing =
    <E,>(field: FieldName, change: (event: E) => void) =>
    (event: E) => {
      change(event);
      if (error?.field === field) setError(null);
    };

  return (
    <form
      ref={form}
      onSubmit={submit}
      noValidate
      aria-describedby={noticeId}
      className="flex flex-col gap-5"
    >
      <div
        id={noticeId}
        className="rounded-field border border-warning/70 bg-warning/15 p-4 text-sm"
      >
        <p className="font-semibold text-warning-content">
          Demo gateway: no card is charged and no money moves.
        </p>
        <p className="mt-1 text-base-content">
          This portal runs its offline demo card gateway. Pay with one of Stripe's test cards, any
          future expiry, any CVC and any postcode:
        </p>
        <ul className="mt-3 flex flex-col gap-2" aria-label="Test cards">
          {TEST_CARDS.map((card) => (
            <li key={card.number} className="flex items-center justify-between gap-3">
              <span className="flex min-w-0 flex-col sm:flex-row sm:items-baseline sm:gap-2">
                <span className="whitespace-nowrap font-mono font-medium text-neutral">
                  {card.number}
                </span>
                <span className="text-xs text-muted sm:text-sm">{card.outcome}</span>
              </span>
              <button
                type="button"
                className="btn btn-xs shrink-0 border-warning/80 bg-base-100 text-neutral hover:bg-base-200"
                aria-label={`Use test card ${card.number}`}
                onClick={() => fillTestCard(card.number)}
                disabled={processing}
              >
                Use
              </button>
            </li>
          ))}
        </ul>
      </div>

      <fieldset className="flex flex-col gap-4">
        <legend className="sr-only">Card details</legend>
        <CardField
          name="number"
          {...number.input}
          onChange={editing('number', number.input.onChange)}
          problem={problem}
        />
        <div className="grid grid-cols-2 gap-4 sm:grid-cols-3">
          <CardField
            name="expiry"
            {...expiry.input}
            onChange={editing('expiry', expiry.input.onChange)}
            problem={problem}
          />
          <CardField
            name="cvc"
            value={cvc}
            onChange={editing('cvc', (event: ChangeEvent<HTMLInputElement>) =>
              setCvc(digitsOf(event.currentTarget.value).slice(0, 4)),
            )}
            problem={problem}
          />
          <div className="col-span-2 sm:col-span-1">
            <CardField
              name="postalCode"
              value={postalCode}
              onChange={editing('postalCode', (event: ChangeEvent<HTMLInputElement>) =>
                setPostalCode(event.currentTarget.value.slice(0, 12)),
              )}
              problem={problem}
            />
          </div>
        </div>
      </fieldset>

      {error ? (
        <div id={errorId}>
          <ErrorAlert>{error.message}</ErrorAlert>
        </div>
      ) : null}
      <PayButton ready={ready} processing={processing} amountId={amountId} />
      <PreparingNote show={!ready} />
    </form>
  );
}

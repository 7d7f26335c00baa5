import {
  AGE_RANGE,
  accountAgeField,
  accountPhoneField,
  DELETE_CONFIRMATION,
  nameField,
  passwordField,
  paths,
  WRONG_CURRENT_PASSWORD,
} from '@doctors-portal/contract';
import { type FormEvent, type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { toast } from 'react-toastify/unstyled';
import type { z } from 'zod';
import { useSignInWithGoogle } from '../../../api/clinic';
import { useConfirm } from '../../../components/confirm-dialog';
import { Email } from '../../../components/email';
import { ErrorAlert } from '../../../components/error-alert';
import { Field } from '../../../components/form-field';
import { SubmitButton } from '../../../components/submit-button';
import { ApiError, reasonOf } from '../../../lib/api-client';
import { useAuth } from '../../../lib/auth/auth-provider';
import { downloadMyData } from '../api/export-my-data';
import { useOtherSessions, useSignOutElsewhere } from '../api/other-sessions';
import { useHasPassword, useSendPasswordLink } from '../api/sign-in-methods';
import {
  type ProfileChange,
  useChangePassword,
  useRemoveAccount,
  useUpdateProfile,
} from '../api/update-account';
import { PaidVisitsKept } from './paid-visits-kept';

function Panel({
  title,
  children,
  danger = false,
}: {
  title: string;
  children: ReactNode;
  danger?: boolean;
}) {
  const id = useId();
  return (
    <section
      aria-labelledby={id}
      className={`rounded-box border bg-base-100 p-4 shadow-soft sm:p-6 ${
        danger ? 'border-error/40' : 'border-base-300'
      }`}
    >
      <h2 id={id} className="heading-3 text-neutral">
        {title}
      </h2>
      <div className="mt-4">{children}</div>
    </section>
  );
}

/** A number field's keypad and the range the browser offers (the schema decides). */
const numberInput = {
  inputMode: 'numeric',
  min: AGE_RANGE.min,
  max: AGE_RANGE.max,
  step: 1,
} as const;

/** One field of the profile, saved on its own: the name, the phone or the age. */
function ProfileForm({
  field,
  label,
  initial,
  schema,
  autoComplete,
  type = 'text',
  hint,
}: {
  field: keyof ProfileChange;
  label: string;
  initial: string;
  schema: z.ZodType<string | number | null, unknown>;
  autoComplete: string;
  type?: 'text' | 'tel' | 'number';
  hint?: string;
}) {
  const [value, setValue] = useState(initial);
  const [error, setError] = useState<string>();
  const change = useUpdateProfile();
  const what = label.toLowerCase();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = schema.safeParse(value);
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message);
      return;
    }
    setError(undefined);
    change.mutate(
      { [field]: parsed.data },
      {
        onSuccess: () => toast.success(`Your ${what} has been saved.`),
      },
    );
  };
  return (
    <form noValidate onSubmit={submit} className="flex max-w-md flex-col gap-4">
      <Field
        label={label}
        name={field}
        type={type}
        {...(type === 'number' ? numberInput : {})}
        autoComplete={autoComplete}
        value={value}
        onChange={(event) => setValue(event.target.value)}
        error={error}
        hint={hint}
      />
      {change.isError ? (
        <ErrorAlert>{reasonOf(change.error, `Your ${what} could not be saved.`)}</ErrorAlert>
      ) : null}
      <SubmitButton pending={change.isPending} pendingLabel="Saving…" className="self-start">
        {`Save ${what}`}
      </SubmitButton>
    </form>
  );
}

const passwordFields = [
  { name: 'current', label: 'Current password', autoComplete: 'current-password' },
  {
    name: 'next',
    label: 'New password',
    autoComplete: 'new-password',
    hint: 'At least 6 characters, and not one of the most common passwords.',
  },
  { name: 'repeat', label: 'Repeat the new password', autoComplete: 'new-password' },
] as const;

/**
 * Why the password was not changed: the sign-in service calls a wrong current password 'Invalid
 * password'; the portal says it as removing the account does.
 */
function passwordRefusal(error: unknown): string {
  if (
    error instanceof ApiError &&
    error.status === 400 &&
    /^invalid password$/i.test(error.message)
  ) {
    return WRONG_CURRENT_PASSWORD;
  }
  return reasonOf(error, 'Your password could not be changed.');
}

function PasswordForm() {
  const [fields, setFields] = useState({ current: '', next: '', repeat: '' });
  const [errors, setErrors] = useState<Partial<Record<keyof typeof fields, string>>>({});
  const change = useChangePassword();
  const set = (name: keyof typeof fields) => (event: { target: { value: string } }) =>
    setFields((now) => ({ ...now, [name]: event.target.value }));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    // The last attempt's refusal answered other values: it goes with a new attempt.
    change.reset();
    const found: typeof errors = {};
    if (!fields.current) found.current = 'Please enter your current password';
    const next = passwordField.safeParse(fields.next);
    if (!next.success) found.next = next.error.issues[0]?.message;
    else if (fields.repeat !== fields.next) found.repeat = 'The two passwords differ';
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    change.mutate(
      { currentPassword: fields.current, newPassword: fields.next },
      {
        onSuccess: () => {
          setFields({ current: '', next: '', repeat: '' });
          toast.success('Your password has been changed.');
        },
      },
    );
  };
  return (
    <form noValidate onSubmit={submit} className="flex max-w-md flex-col gap-4">
      {passwordFields.map(({ name, ...field }) => (
        <Field
          key={name}
          type="password"
          {...field}
          value={fields[name]}
          onChange={set(name)}
          error={errors[name]}
        />
      ))}
      {change.isError ? <ErrorAlert>{passwordRefusal(change.error)}</ErrorAlert> : null}
      <SubmitButton pending={change.isPending} pendingLabel="Changing…" className="self-start">
        Change password
      </SubmitButton>
    </form>
  );
}

/**
 * An account made with Google has no password to change: the reset link sets its first one,
 * after which the patient can also log in with their email.
 */
function SetPasswordByMail({ email }: { email: string }) {
  const send = useSendPasswordLink(email);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    send.mutate(undefined, {
      onSuccess: () => toast.success(`A link to set your password is on its way to ${email}.`),
    });
  };
  return (
    <form noValidate onSubmit={submit} className="flex max-w-2xl flex-col items-start gap-3">
      <p>
        You sign in with Google, so this account has no password. We can email you a link to set
        one; then you can also log in with your email and password.
      </p>
      {send.isError ? (
        <ErrorAlert>{reasonOf(send.error, 'The link could not be sent.')}</ErrorAlert>
      ) : null}
      <SubmitButton pending={send.isPending} pendingLabel="Sending…">
        Email me a link
      </SubmitButton>
    </form>
  );
}

/** The account's other sessions, and ending them all from here (a lost phone, a shared computer). */
function OtherSessions({ userId }: { userId: string }) {
  const others = useOtherSessions(userId);
  const signOut = useSignOutElsewhere(userId);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    signOut.mutate(undefined, {
      onSuccess: () => toast.success('You have been signed out on your other devices.'),
    });
  };
  if (others.isPending) return <p className="text-muted">Looking for your other sessions…</p>;
  if (others.isError) {
    return (
      <ErrorAlert>{reasonOf(others.error, 'Your other sessions could not be listed.')}</ErrorAlert>
    );
  }
  if (others.data === 0) return <p>You are signed in on this device only.</p>;
  return (
    <form noValidate onSubmit={submit} className="flex max-w-2xl flex-col items-start gap-3">
      <p>
        {others.data === 1
          ? 'You are also signed in on 1 other device or browser.'
          : `You are also signed in on ${others.data} other devices or browsers.`}{' '}
        Signing out there does not sign you out here.
      </p>
      {signOut.isError ? (
        <ErrorAlert>{reasonOf(signOut.error, 'You could not be signed out elsewhere.')}</ErrorAlert>
      ) : null}
      <SubmitButton pending={signOut.isPending} pendingLabel="Signing out…">
        Sign out everywhere else
      </SubmitButton>
    </form>
  );
}

function ExportData() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const download = async () => {
    setBusy(true);
    setError(undefined);
    try {
      const name = await downloadMyData();
      toast.success(`Your data was downloaded as ${name}.`);
    } catch (failure) {
      setError(reasonOf(failure, 'Your data could not be downloaded.'));
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="flex flex-col items-start gap-3">
      <p className="max-w-2xl">
        One JSON file with your profile, all your bookings (cancelled ones too), payments and
        refunds, the messages you sent us and what you did in the portal. No password or card
        details are in it.
      </p>
      {error ? <ErrorAlert>{error}</ErrorAlert> : null}
      <button
        type="button"
        className="btn btn-primary btn-outline"
        onClick={download}
        disabled={busy}
      >
        Download my data
      </button>
    </div>
  );
}

/** What the removal asks to be typed: the password, or the confirmation without one. */
function removalSecret(hasPassword: boolean | undefined) {
  if (hasPassword === false) {
    return {
      label: `Type ${DELETE_CONFIRMATION} to confirm`,
      type: 'text',
      autoComplete: 'off',
      missing: `Please type ${DELETE_CONFIRMATION} to confirm`,
      hint: 'Your account has no password: it signs in with Google.',
    } as const;
  }
  return {
    label: 'Current password',
    type: 'password',
    autoComplete: 'current-password',
    missing: `Please enter your current password (or ${DELETE_CONFIRMATION})`,
    // Not yet known whether this account has a password: say what to do without one.
    hint:
      hasPassword === undefined
        ? `Signed in with Google only? Type ${DELETE_CONFIRMATION} instead.`
        : undefined,
  } as const;
}

function DeleteAccount({ hasPassword }: { hasPassword: boolean | undefined }) {
  const [secret, setSecret] = useState('');
  const [error, setError] = useState<string>();
  const confirm = useConfirm();
  const remove = useRemoveAccount();
  const { missing, ...secretField } = removalSecret(hasPassword);
  const auth = useAuth();
  const signOut = useRef(auth.signOut);
  signOut.current = auth.signOut;
  const navigate = useNavigate();
  const [leaving, setLeaving] = useState(false);
  // Signed out once this page is gone: a navigation is a transition and a sign-out is not, so
  // signed out here first, the sign-in guard would send the patient to log in to come back.
  useEffect(() => {
    if (!leaving) return;
    return () => void signOut.current();
  }, [leaving]);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!secret) {
      setError(missing);
      return;
    }
    setError(undefined);
    const sure = await confirm({
      message:
        'Delete your account? Your upcoming unpaid appointments will be cancelled, and you will be signed out. This cannot be undone.',
      confirmLabel: 'Delete my account',
      cancelLabel: 'Keep my account',
      danger: true,
    });
    if (!sure) return;
    remove.mutate(
      { password: secret, confirmation: secret },
      {
        onSuccess: () => {
          toast.success('Your account has been deleted.');
          setLeaving(true);
          navigate(paths.home, { replace: true });
        },
      },
    );
  };
  return (
    <form noValidate onSubmit={submit} className="flex max-w-md flex-col gap-4">
      <p>
        Upcoming appointments you have not paid for are cancelled and their times freed. Past and
        paid visits stay in the clinic&rsquo;s records without your name or phone.
      </p>
      {auth.user ? <PaidVisitsKept email={auth.user.email} /> : null}
      <Field
        {...secretField}
        value={secret}
        onChange={(event) => setSecret(event.target.value)}
        error={error}
      />
      {remove.isError ? (
        <ErrorAlert>{reasonOf(remove.error, 'Your account could not be deleted.')}</ErrorAlert>
      ) : null}
      <SubmitButton
        pending={remove.isPending}
        pendingLabel="Deleting…"
        tone="danger"
        className="self-start"
      >
        Delete my account
      </SubmitButton>
    </form>
  );
}

/**
 * /dashboard/account: the patient's name, phone, age and password, their other sessions, their
 * data, and removing the account.
 */
export function AccountPage() {
  const { user } = useAuth();
  const googleOffered = useSignInWithGoogle();
  const hasPassword = useHasPassword(user?.id ?? '', googleOffered && Boolean(user));
  if (!user) return null;
  return (
    <div className="flex flex-col gap-6">
      <div>
        <p className="eyebrow">Your account</p>
        <h1 className="heading-2 mt-2 text-neutral">Account</h1>
        <p className="mt-2 text-muted">
          <Email address={user.email} />
        </p>
      </div>
      <Panel title="Your name">
        <ProfileForm
          field="name"
          label="Name"
          initial={user.name}
          schema={nameField}
          autoComplete="name"
        />
      </Panel>
      <Panel title="Your phone">
        <ProfileForm
          field="phone"
          label="Phone"
          type="tel"
          initial={user.phone ?? ''}
          schema={accountPhoneField}
          autoComplete="tel"
          hint="The clinic calls this number about your visits. Leave it empty to remove it."
        />
      </Panel>
      <Panel title="Your age">
        <ProfileForm
          field="age"
          label="Age"
          type="number"
          initial={user.age?.toString() ?? ''}
          schema={accountAgeField}
          autoComplete="off"
          hint="Your booking form starts with it. Leave it empty to remove it."
        />
      </Panel>
      <Panel title="Password">
        {hasPassword === false ? <SetPasswordByMail email={user.email} /> : <PasswordForm />}
      </Panel>
      <Panel title="Signed in elsewhere">
        <OtherSessions userId={user.id} />
      </Panel>
      <Panel title="Your data">
        <ExportData />
      </Panel>
      <Panel title="Delete my account" danger>
        <DeleteAccount hasPassword={hasPassword} />
      </Panel>
    </div>
  );
}

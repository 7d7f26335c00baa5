import { type LoginInput, loginSchema, messages } from '@doctors-portal/contract';
import { zodResolver } from '@hookform/resolvers/zod';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../lib/api-client';
import { AuthForm, emailField, useAuthForm } from './auth-form';

const FIELDS = [
  emailField,
  { name: 'password', label: 'Password', type: 'password', autoComplete: 'current-password' },
] as const;

function LoginLikeForm({
  send,
  spinner,
  initialAlert,
}: {
  send: (input: LoginInput) => Promise<void>;
  spinner?: boolean;
  initialAlert?: string;
}) {
  const auth = useAuthForm(zodResolver(loginSchema), send, initialAlert);
  return (
    <AuthForm auth={auth} fields={FIELDS} submitLabel="Login" spinner={spinner}>
      <button type="button" onClick={() => auth.showProviderError('')}>
        Clear
      </button>
    </AuthForm>
  );
}

function show(props: Parameters<typeof LoginLikeForm>[0]) {
  const user = userEvent.setup();
  const view = render(<LoginLikeForm {...props} />);
  const fill = async () => {
    await user.type(screen.getByLabelText('Email'), 'maya@mail.com');
    await user.type(screen.getByLabelText('Password'), 'secret123');
  };
  const submit = () => user.click(screen.getByRole('button', { name: 'Login' }));
  return { ...view, user, fill, submit };
}

/** A promise the test settles when it chooses. */
function pending() {
  let settle: { resolve: () => void; reject: (error: unknown) => void } | undefined;
  const promise = new Promise<void>((resolve, reject) => {
    settle = { resolve, reject };
  });
  return { promise, ...(settle as NonNullable<typeof settle>) };
}

describe('an auth form', () => {
  it("shows the schema's messages under the fields and sends nothing while they stand", async () => {
    const send = vi.fn(async () => {});
    const { submit } = show({ send });
    await submit();
    expect(await screen.findByText(messages.passwordRequired)).toBeInTheDocument();
    expect(screen.getByLabelText('Password')).toHaveAttribute('aria-invalid', 'true');
    expect(send).not.toHaveBeenCalled();
  });

  it('sends the checked input', async () => {
    const send = vi.fn(async () => {});
    const { fill, submit } = show({ send });
    await fill();
    await submit();
    await waitFor(() =>
      expect(send).toHaveBeenCalledWith({ email: 'maya@mail.com', password: 'secret123' }),
    );
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it("shows the identity service's refusal as the provider's message", async () => {
    const { fill, submit } = show({
      send: async () => {
        throw new ApiError(401, 'Invalid email or password');
      },
    });
    await fill();
    await submit();
    expect(await screen.findByRole('alert')).toHaveTextContent(
      `${messages.providerErrorPrefix}Invalid email or password`,
    );
  });

  it('says something went wrong when the failure is not an answer of the service', async () => {
    const { fill, submit } = show({
      send: async () => {
        throw new TypeError('Failed to fetch');
      },
    });
    await fill();
    await submit();
    expect(await screen.findByRole('alert')).toHaveTextContent(
      `${messages.providerErrorPrefix}Something went wrong. Please try again.`,
    );
  });

  it('clears the alert when the form is sent again, and shows a spinner while it is sent', async () => {
    const answer = pending();
    const { fill, submit } = show({
      send: () => answer.promise,
      spinner: true,
      initialAlert: 'Developer Authority says: Google sign-in was cancelled.',
    });
    expect(screen.getByRole('alert')).toHaveTextContent('Google sign-in was cancelled.');
    await fill();
    await submit();
    const button = screen.getByRole('button', { name: 'Login' });
    await waitFor(() => expect(button).toBeDisabled());
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(button.querySelector('.loading')).not.toBeNull();
    answer.resolve();
    await waitFor(() => expect(button).toBeEnabled());
    expect(button.querySelector('.loading')).toBeNull();
  });

  it('shows no spinner unless asked to', async () => {
    const answer = pending();
    const { fill, submit } = show({ send: () => answer.promise });
    await fill();
    await submit();
    const button = screen.getByRole('button', { name: 'Login' });
    await waitFor(() => expect(button).toBeDisabled());
    expect(button.querySelector('.loading')).toBeNull();
    answer.resolve();
  });

  it("clears the alert when a provider's message is empty", async () => {
    const { user } = show({ send: async () => {}, initialAlert: 'Developer Authority says: x' });
    expect(screen.getByRole('alert')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Clear' }));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});

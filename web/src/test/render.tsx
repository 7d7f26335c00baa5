import { QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { ToastContainer } from 'react-toastify/unstyled';
import { ConfirmProvider } from '../components/confirm-dialog';
import { AuthProvider } from '../lib/auth/auth-provider';
import { type LoginState, SignedInOutlet } from '../lib/auth/guards';
import { createQueryClient } from '../lib/query-client';

/** Stands in for the login page: says where the patient would be brought back to. */
function LoginPage() {
  const from = (useLocation().state as LoginState | null)?.from;
  return (
    <h1>{`Login page, back to ${from ? `${from.pathname}${from.search ?? ''}` : 'nothing'}`}</h1>
  );
}

export interface PortalOptions {
  /** The address the app starts at. */
  at?: string;
  /** The route pattern `ui` is shown at; other routes: /login only. */
  path?: string;
  /** Routes beside it (e.g. a guard's layout), instead of `path`. */
  routes?: ReactNode;
}

/**
 * Renders `ui` inside the app's own providers (the query client with its session handling, the
 * auth provider, confirmation dialog, toasts) and a router at `at`. Only `fetch` is stubbed, by
 * the test (fetch-stub.ts).
 */
export function renderInPortal(
  ui: ReactNode,
  { at = '/', path = '*', routes }: PortalOptions = {},
) {
  const queryClient = createQueryClient();
  // Failures show at once: no second attempt a second later.
  queryClient.setDefaultOptions({
    ...queryClient.getDefaultOptions(),
    queries: { ...queryClient.getDefaultOptions().queries, retry: false },
  });
  const user = userEvent.setup();
  const view = render(
    <QueryClientProvider client={queryClient}>
      <AuthProvider>
        <ConfirmProvider>
          <MemoryRouter initialEntries={[at]}>
            <Routes>
              {routes ?? <Route path={path} element={ui} />}
              <Route path="/login" element={<LoginPage />} />
            </Routes>
          </MemoryRouter>
        </ConfirmProvider>
      </AuthProvider>
      <ToastContainer />
    </QueryClientProvider>,
  );
  return { ...view, user, queryClient };
}

/** `ui` at the route `path` behind the signed-in guard, the app opened at `at` (`path` unless told). */
export function renderSignedIn(ui: ReactNode, { path, at = path }: { path: string; at?: string }) {
  return renderInPortal(null, {
    at,
    routes: (
      <Route element={<SignedInOutlet />}>
        <Route path={path} element={ui} />
      </Route>
    ),
  });
}

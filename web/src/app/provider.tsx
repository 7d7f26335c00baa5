import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { ToastContainer } from 'react-toastify/unstyled';
import { ConfirmProvider } from '../components/confirm-dialog';
import { AuthProvider } from '../lib/auth/auth-provider';
import { createQueryClient } from '../lib/query-client';

interface AppProviderProps {
  children: ReactNode;
  /** The prerender's, which holds the clinic's details; the browser's app makes its own. */
  queryClient?: QueryClient;
}

export function AppProvider({ children, queryClient: given }: AppProviderProps) {
  const [queryClient] = useState(() => given ?? createQueryClient());
  return (
    <QueryClientProvider client={queryClient}>
      <AuthProvider>
        <ConfirmProvider>{children}</ConfirmProvider>
      </AuthProvider>
      <ToastContainer position="top-right" autoClose={5000} />
    </QueryClientProvider>
  );
}

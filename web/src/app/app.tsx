import { StrictMode } from 'react';
import { AppProvider } from './provider';
import { AppRouter } from './router';

export function App() {
  return (
    <StrictMode>
      <AppProvider>
        <AppRouter />
      </AppProvider>
    </StrictMode>
  );
}

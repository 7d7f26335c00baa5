import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { AppProvider } from './app/provider';
import { AppRouter } from './app/router';
import 'react-toastify/ReactToastify.css';
import './styles.css';

const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element');

// As a transition, the first render yields to the browser every few milliseconds instead of
// holding the main thread for one long task (Lighthouse's Total Blocking Time on phones).
startTransition(() => {
  createRoot(root).render(
    <StrictMode>
      <AppProvider>
        <AppRouter />
      </AppProvider>
    </StrictMode>,
  );
});

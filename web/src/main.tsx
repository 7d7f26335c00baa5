import { startTransition } from 'react';
import { App } from './app/app';
import 'react-toastify/ReactToastify.css';
import './styles.css';

const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element');

// React DOM is a module of its own, which the browser evaluates in a task of its own: two tasks
// each shorter than the one a single entry would take (Lighthouse's Total Blocking Time on
// phones). The page asks for it together with the entry (modulepreload, vite.config.ts).
void import('react-dom/client').then(({ createRoot }) => {
  // As a transition, the first render yields to the browser every few milliseconds instead of
  // holding the main thread for one long task.
  startTransition(() => {
    createRoot(root).render(<App />);
  });
});

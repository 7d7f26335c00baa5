import { startTransition } from 'react';
import { config } from 'zod';
import { App } from './app/app';
import { PRERENDERED_SCREENS } from './app/router';
import 'react-toastify/ReactToastify.css';
import './styles.css';

// The content security policy allows no eval: zod need not try (and be refused) its compiled
// parsers, which would report a violation on every page with a form.
config({ jitless: true });

const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element');

// React DOM is a module of its own, which the browser evaluates in a task of its own: two tasks
// each shorter than the one a single entry would take (Lighthouse's Total Blocking Time on
// phones). The page asks for it together with the entry (modulepreload, vite.config.ts).
// A public page comes prerendered by the server (prerender.tsx): the app takes over its HTML
// instead of drawing it again, once the screen's own module has loaded. One that fails to load
// is the screen's error boundary's to show.
const prerendered = root.firstElementChild !== null;
void Promise.all([
  import('react-dom/client'),
  prerendered ? PRERENDERED_SCREENS[window.location.pathname]?.load().catch(() => {}) : undefined,
]).then(([{ createRoot, hydrateRoot }]) => {
  // As a transition, the first render yields to the browser every few milliseconds instead of
  // holding the main thread for one long task.
  startTransition(() => {
    if (prerendered) {
      hydrateRoot(root, <App />, {
        // React draws a part it could not take over afresh (a screen whose module failed to load
        // shows its error): the reason is what is worth reporting, not React's own notice.
        onRecoverableError: (error) =>
          console.error(error instanceof Error && error.cause ? error.cause : error),
      });
    } else createRoot(root).render(<App />);
  });
});

import { messages, paths } from '@doctors-portal/contract';
import type { MouseEvent } from 'react';
import { useNavigate } from 'react-router';
import { useConfirm } from '../components/confirm-dialog';
import { Footer } from '../components/layout/footer';
import { Navbar } from '../components/layout/navbar';
import { ScreenOutlet } from '../components/layout/screen-outlet';
import { ScrollToHash } from '../components/layout/scroll-to-hash';
import { useAuth } from '../lib/auth/auth-provider';
import { useDocumentTitle } from './document-title';

/** Moves keyboard focus to the page content without adding '#main' to the address. */
function skipToContent(event: MouseEvent<HTMLAnchorElement>) {
  const main = document.getElementById('main');
  if (!main) return;
  event.preventDefault();
  main.focus({ preventScroll: true });
  main.scrollIntoView();
}

/** The frame of every page: navigation bar, the page, footer. */
export function RootLayout() {
  const auth = useAuth();
  const confirm = useConfirm();
  const navigate = useNavigate();
  useDocumentTitle();
  const logout = async () => {
    if (!(await confirm({ message: messages.logoutConfirm, confirmLabel: 'Logout' }))) return;
    await auth.signOut();
    navigate(paths.login, { replace: true });
  };
  return (
    <div className="flex min-h-screen flex-col">
      {/* biome-ignore lint/a11y/useValidAnchor: a real in-page link; the handler keeps '#main' out of the address. */}
      <a
        href="#main"
        onClick={skipToContent}
        className="sr-only focus:not-sr-only focus:fixed focus:left-4 focus:top-3 focus:z-50 focus:rounded-field focus:bg-primary focus:px-4 focus:py-2.5 focus:font-semibold focus:text-primary-content focus:shadow-lift"
      >
        Skip to content
      </a>
      <ScrollToHash />
      <Navbar user={auth.user && { displayName: auth.user.name }} onLogout={logout} />
      <main id="main" tabIndex={-1} className="flex-1 outline-none">
        <ScreenOutlet />
      </main>
      <Footer />
    </div>
  );
}

import { Component, type ReactNode, Suspense } from 'react';
import { Link, Outlet, useLocation } from 'react-router';
import { PageLoader } from '../spinner';

/** Shown when a screen fails to load or render, instead of a blank page. */
function ScreenError() {
  return (
    <section className="mx-auto max-w-xl px-4 py-24 text-center" role="alert">
      <h1 className="text-3xl font-bold">Something went wrong</h1>
      <p className="mt-4 text-base-content/70">
        This page could not be shown. Check your connection and try again.
      </p>
      <div className="mt-8 flex justify-center gap-3">
        <button type="button" className="btn btn-primary" onClick={() => window.location.reload()}>
          Reload
        </button>
        <Link to="/" className="btn btn-ghost">
          Go home
        </Link>
      </div>
    </section>
  );
}

interface BoundaryProps {
  /** The page's address: a failure shows until the address changes. */
  address: string;
  children: ReactNode;
}

interface BoundaryState {
  address: string;
  failed: boolean;
}

class ScreenBoundary extends Component<BoundaryProps, BoundaryState> {
  override state = { address: this.props.address, failed: false };

  static getDerivedStateFromError(): Partial<BoundaryState> {
    return { failed: true };
  }

  static getDerivedStateFromProps(props: BoundaryProps, state: BoundaryState) {
    return props.address === state.address ? null : { address: props.address, failed: false };
  }

  override render() {
    return this.state.failed ? <ScreenError /> : this.props.children;
  }
}

/**
 * Where a layout shows its nested screen. Screens are loaded on first visit (React.lazy): the
 * spinner holds the place on a first load, the current page stays while the next one loads
 * (React Router navigates in transitions), and a screen that fails to load or render shows an
 * error with a way out instead of a blank page.
 */
export function ScreenOutlet() {
  const { pathname } = useLocation();
  return (
    <ScreenBoundary address={pathname}>
      <Suspense fallback={<PageLoader />}>
        <Outlet />
      </Suspense>
    </ScreenBoundary>
  );
}

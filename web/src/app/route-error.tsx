import { isRouteErrorResponse, Link, useRouteError } from 'react-router';

/** Shown when a screen fails to load or render, instead of a blank page. */
export function RouteError() {
  const error = useRouteError();
  const message = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`
    : 'This page could not be shown. Check your connection and try again.';
  return (
    <section className="mx-auto max-w-xl px-4 py-24 text-center" role="alert">
      <h1 className="text-3xl font-bold">Something went wrong</h1>
      <p className="mt-4 text-base-content/70">{message}</p>
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

import { Outlet } from 'react-router';

/** The frame of every page: navigation bar, the page, footer. */
export function RootLayout() {
  return (
    <div className="flex min-h-screen flex-col">
      <main className="flex-1">
        <Outlet />
      </main>
    </div>
  );
}

import type { ComponentType } from 'react';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { PageLoader } from '../components/spinner';
import { AdminOutlet, SignedInOutlet } from '../lib/auth/guards';
import HomeRoute from '../routes/home';
import { RootLayout } from './root-layout';
import { RouteError } from './route-error';

/** Loads a screen's module only when its route is visited, keeping the landing bundle small. */
const screen = (load: () => Promise<{ default: ComponentType }>) => async () => ({
  Component: (await load()).default,
});

const router = createBrowserRouter([
  {
    Component: RootLayout,
    ErrorBoundary: RouteError,
    HydrateFallback: PageLoader,
    children: [
      { index: true, Component: HomeRoute },
      { path: 'home', Component: HomeRoute },
      {
        Component: SignedInOutlet,
        children: [
          { path: 'appointment', lazy: screen(() => import('../routes/appointment')) },
          {
            path: 'dashboard',
            lazy: screen(() => import('../routes/dashboard/layout')),
            children: [
              { index: true, lazy: screen(() => import('../routes/dashboard/my-appointments')) },
              { path: 'review', lazy: screen(() => import('../routes/dashboard/review')) },
              { path: 'history', lazy: screen(() => import('../routes/dashboard/history')) },
              {
                path: 'payment/:bookingId',
                lazy: screen(() => import('../routes/dashboard/payment')),
              },
              {
                Component: AdminOutlet,
                children: [
                  { path: 'users', lazy: screen(() => import('../routes/dashboard/users')) },
                  {
                    path: 'add-doctor',
                    lazy: screen(() => import('../routes/dashboard/add-doctor')),
                  },
                  {
                    path: 'manage-doctor',
                    lazy: screen(() => import('../routes/dashboard/manage-doctor')),
                  },
                ],
              },
            ],
          },
        ],
      },
      { path: 'about', lazy: screen(() => import('../routes/about')) },
      { path: 'who-we-are', lazy: screen(() => import('../routes/who-we-are')) },
      { path: 'login', lazy: screen(() => import('../routes/login')) },
      { path: 'signup', lazy: screen(() => import('../routes/signup')) },
      { path: 'reset-password', lazy: screen(() => import('../routes/reset-password')) },
      { path: '*', lazy: screen(() => import('../routes/not-found')) },
    ],
  },
]);

export function AppRouter() {
  return <RouterProvider router={router} />;
}
